import type { VoteType } from '#shared/api/memes.ts';

export interface VoteTransition {
  /** The voter's vote afterwards. */
  next: VoteType | null;
  /** How the meme's counts change. */
  upvotes: -1 | 0 | 1;
  downvotes: -1 | 0 | 1;
}

/** The same vote again takes it back; the other vote switches it; no vote yet casts it. */
export function voteTransition(current: VoteType | null, requested: VoteType): VoteTransition {
  const delta = (type: VoteType, vote: VoteType | null) => (vote === type ? 1 : 0);
  const next = current === requested ? null : requested;
  return {
    next,
    upvotes: (delta('up', next) - delta('up', current)) as -1 | 0 | 1,
    downvotes: (delta('down', next) - delta('down', current)) as -1 | 0 | 1,
  };
}
