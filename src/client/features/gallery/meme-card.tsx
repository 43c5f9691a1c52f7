import { Share2, ThumbsDown, ThumbsUp } from 'lucide-react';
import { Link } from 'wouter';
import type { Meme, VoteType } from '#shared/api/memes.ts';
import { memberPaths, memePaths, pathTo } from '#shared/api/paths.ts';
import { categoryLabel } from '#shared/categories.ts';
import { cn } from '#client/ui/cn.ts';
import { HolderBadge } from '#client/ui/holder-badge.tsx';
import { MemeThumbnail } from '#client/ui/meme-thumbnail.tsx';
import { ReportButton } from './report-button.tsx';

type MemeActionProps = {
  meme: Meme;
  onVote: (voteType: VoteType) => void;
  onShare: () => void;
  voting: boolean;
};

/** Vote, report and share: the same buttons on a card and on the meme's own page. */
export function MemeActions({ meme, onVote, onShare, voting }: MemeActionProps) {
  const voteButton = (type: VoteType) => {
    const up = type === 'up';
    const chosen = meme.myVote === type;
    const Icon = up ? ThumbsUp : ThumbsDown;
    return (
      <button
        type="button"
        onClick={() => onVote(type)}
        disabled={voting}
        aria-pressed={chosen}
        aria-label={`${up ? 'Upvote' : 'Downvote'} (${up ? meme.upvotes : meme.downvotes})`}
        className={cn(
          'inline-flex h-9 min-w-16 items-center justify-center gap-1.5 rounded-lg border px-3 text-sm font-semibold transition-colors',
          'disabled:cursor-wait',
          chosen
            ? up
              ? 'border-emerald-500 bg-emerald-500/20 text-emerald-300'
              : 'border-rose-500 bg-rose-500/20 text-rose-300'
            : 'border-slate-700 text-slate-300 hover:bg-slate-800',
        )}
      >
        <Icon className="h-4 w-4" aria-hidden fill={chosen ? 'currentColor' : 'none'} />
        <span className="tabular-nums" data-testid={up ? 'upvotes' : 'downvotes'}>
          {up ? meme.upvotes : meme.downvotes}
        </span>
      </button>
    );
  };

  return (
    <div className="mt-auto flex items-center gap-2">
      {voteButton('up')}
      {voteButton('down')}
      <ReportButton memeId={meme.id} title={meme.title} className="ml-auto" />
      <button
        type="button"
        onClick={onShare}
        aria-label="Share"
        className="inline-flex h-9 w-9 items-center justify-center rounded-lg border border-slate-700 text-slate-300 hover:bg-slate-800"
      >
        <Share2 className="h-4 w-4" aria-hidden />
      </button>
    </div>
  );
}

/** Who posted the meme: their name leads to their page, with their holder badge. */
function MemeAuthor({ author }: { author: NonNullable<Meme['author']> }) {
  return (
    <p className="mt-1 flex flex-wrap items-center gap-1 text-xs text-slate-400">
      by
      <Link
        href={pathTo(memberPaths.page, { username: author.username })}
        className="font-medium text-slate-200 hover:underline"
      >
        {author.username}
      </Link>
      <HolderBadge tier={author.holder} />
    </p>
  );
}

export function MemeCard(props: MemeActionProps) {
  const { meme } = props;
  return (
    <article
      className="flex flex-col overflow-hidden rounded-xl border border-slate-800 bg-slate-900"
      data-testid="meme-card"
      aria-label={meme.title}
    >
      <Link
        href={pathTo(memePaths.page, { id: meme.id })}
        // The image lies over a 4:3 box rather than in it: in the flow, a tall image would stretch
        // the box (and its card) past 4:3.
        className="relative block aspect-[4/3] bg-slate-950"
        aria-label={`Open "${meme.title}"`}
      >
        <MemeThumbnail
          meme={meme}
          decoding="async"
          className="absolute inset-0 h-full w-full object-contain"
        />
      </Link>
      <div className="flex flex-1 flex-col gap-3 p-4">
        <div className="min-w-0">
          <h3 className="line-clamp-2 font-semibold break-words text-slate-100">{meme.title}</h3>
          <span className="mt-1 inline-block rounded-full bg-grind-500/15 px-2 py-0.5 text-xs font-medium text-grind-300">
            {categoryLabel(meme.category)}
          </span>
          {meme.author ? <MemeAuthor author={meme.author} /> : null}
        </div>
        <MemeActions {...props} />
      </div>
    </article>
  );
}

export function MemeCardSkeleton() {
  return (
    <div
      className="overflow-hidden rounded-xl border border-slate-800 bg-slate-900"
      data-testid="meme-skeleton"
      aria-hidden
    >
      <div className="aspect-[4/3] animate-pulse bg-slate-800" />
      <div className="space-y-3 p-4">
        <div className="h-4 w-3/4 animate-pulse rounded bg-slate-800" />
        <div className="h-4 w-1/3 animate-pulse rounded bg-slate-800" />
        <div className="flex gap-2">
          <div className="h-9 w-16 animate-pulse rounded-lg bg-slate-800" />
          <div className="h-9 w-16 animate-pulse rounded-lg bg-slate-800" />
        </div>
      </div>
    </div>
  );
}
