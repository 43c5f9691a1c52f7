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

/**
 * Visitor votes counted per meme from one network (an IPv4 address or an IPv6 /48): a
 * household votes freely, while one address, or one subscriber's whole IPv6 prefix, adds at
 * most this many votes to a meme however many cookies it drops (decision 020).
 */
export const VISITOR_VOTES_PER_NETWORK = 5;

/**
 * Whether a visitor's vote may be stored: one already cast may always be switched or taken
 * back; a new one needs room under its network's cap (`networkVotes` already on the meme).
 */
export function visitorVoteFits(current: VoteType | null, networkVotes: number): boolean {
  return current !== null || networkVotes < VISITOR_VOTES_PER_NETWORK;
}
