import { useEffect, useRef } from 'react';
import type { MemeSort } from '#shared/api/memes.ts';
import { categoryLabel, type CategoryFilter } from '#shared/categories.ts';
import { toast } from '#client/lib/toast-store.ts';
import { Button } from '#client/ui/button.tsx';
import { useMemes } from './gallery-api.ts';
import { NewMemesPill, useLiveGallery } from './live-gallery.tsx';
import { MemeCard, MemeCardSkeleton } from './meme-card.tsx';
import { useMemeActions } from './use-meme-actions.ts';

/** Six skeleton cards while the first page loads (tests/e2e/gallery.spec.ts, "loading shows six skeletons"). */
const SKELETON_CARDS = 6;

export function MemeGrid({
  category,
  sort,
  viewer,
}: {
  category: CategoryFilter;
  sort: MemeSort;
  viewer: number | null;
}) {
  const memes = useMemes(category, sort, viewer);
  const actions = useMemeActions();
  const live = useLiveGallery();
  const top = useRef<HTMLDivElement>(null);
  const { isError, errorUpdatedAt } = memes;
  const showNew = () =>
    void live.showNew(memes.refetch).then(() => {
      const still = window.matchMedia('(prefers-reduced-motion: reduce)').matches;
      top.current?.scrollIntoView({ behavior: still ? 'auto' : 'smooth', block: 'start' });
    });

  useEffect(() => {
    if (isError) toast({ title: 'Failed to fetch memes', variant: 'destructive' });
  }, [isError, errorUpdatedAt]);

  if (memes.isPending) {
    return (
      <div className={gridClasses} role="status" aria-label="Loading memes">
        {Array.from({ length: SKELETON_CARDS }, (_, i) => (
          <MemeCardSkeleton key={i} />
        ))}
      </div>
    );
  }

  if (memes.isError && !memes.data) {
    return (
      <div className="rounded-xl border border-slate-800 bg-slate-900 p-10 text-center">
        <p className="text-slate-300">The memes could not be loaded.</p>
        <Button variant="secondary" className="mt-4" onClick={() => void memes.refetch()}>
          Try again
        </Button>
      </div>
    );
  }

  const list = memes.data?.pages.flatMap((page) => page.memes) ?? [];
  if (list.length === 0) {
    return (
      <div className="rounded-xl border border-dashed border-slate-700 bg-slate-900/50 p-10 text-center">
        <p className="text-lg font-semibold text-slate-100">No memes found</p>
        <p className="mt-2 text-slate-400">
          {category === 'all'
            ? 'Be the first to upload a meme!'
            : `No memes in the ${categoryLabel(category)} category yet.`}
        </p>
      </div>
    );
  }

  return (
    <>
      <div ref={top} className="scroll-mt-24">
        <NewMemesPill count={live.newMemes} onShow={showNew} />
      </div>
      <div className={gridClasses}>
        {list.map((meme) => (
          <MemeCard key={meme.id} {...actions.propsFor(meme)} />
        ))}
      </div>
      {memes.hasNextPage ? (
        <div className="mt-8 flex justify-center">
          <Button
            variant="secondary"
            onClick={() => void memes.fetchNextPage()}
            disabled={memes.isFetchingNextPage}
          >
            {memes.isFetchingNextPage ? 'Loading...' : 'Load More'}
          </Button>
        </div>
      ) : null}
    </>
  );
}

const gridClasses = 'grid gap-6 sm:grid-cols-2 lg:grid-cols-3';
