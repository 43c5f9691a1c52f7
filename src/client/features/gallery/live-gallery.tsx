import { useQueryClient, type InfiniteData } from '@tanstack/react-query';
import { useState } from 'react';
import type { Meme } from '#shared/api/memes.ts';
import { useLiveEvent } from '#client/lib/use-live-event.ts';
import { memesQueryRoot, type MemesPage } from './gallery-api.ts';

type Cached = InfiniteData<MemesPage> | Meme | undefined;

/** The cached lists without meme `id` (a moderator hid or deleted it). */
function without(data: Cached, id: number): Cached {
  if (!data || !('pages' in data)) return data;
  if (!data.pages.some((page) => page.memes.some((meme) => meme.id === id))) return data;
  return {
    ...data,
    pages: data.pages.map((page) => ({ ...page, memes: page.memes.filter((m) => m.id !== id) })),
  };
}

function withCounts(data: Cached, id: number, upvotes: number, downvotes: number): Cached {
  const update = (meme: Meme) =>
    meme.id === id && (meme.upvotes !== upvotes || meme.downvotes !== downvotes)
      ? { ...meme, upvotes, downvotes }
      : meme;
  if (!data) return data;
  if ('pages' in data) {
    return {
      ...data,
      pages: data.pages.map((page) => ({ ...page, memes: page.memes.map(update) })),
    };
  }
  return update(data);
}

/**
 * The gallery's live updates (docs/decisions/021): counts of the memes on screen change in
 * place (the numbers are tabular, so nothing moves); new memes are counted, not inserted, until
 * the reader asks for them; a meme taken down (hidden by a moderator or by reports, or deleted)
 * leaves the open lists at once, and its permalink page reads it again and finds it gone; one
 * shown again comes back at the next load of the list.
 */
export function useLiveGallery() {
  const queryClient = useQueryClient();
  const [newMemes, setNewMemes] = useState(0);

  useLiveEvent('vote', (vote) => {
    if (vote === null) return void queryClient.invalidateQueries({ queryKey: memesQueryRoot });
    queryClient.setQueriesData<Cached>({ queryKey: memesQueryRoot }, (data) =>
      withCounts(data, vote.id, vote.upvotes, vote.downvotes),
    );
  });
  useLiveEvent('meme', (change) => {
    if (change?.change === 'added') return setNewMemes((n) => n + 1);
    if (change?.change === 'hidden' || change?.change === 'deleted') {
      // Taken down: off every open list now, not at the reader's next load.
      queryClient.setQueriesData<Cached>({ queryKey: memesQueryRoot }, (data) =>
        without(data, change.id),
      );
      // Its permalink page, for any viewer (memeQueryKey), reads it again and finds it gone.
      void queryClient.invalidateQueries({ queryKey: [...memesQueryRoot, 'one', change.id] });
    }
    // The rest is read again at the next load, not under the reader's eyes.
    void queryClient.invalidateQueries({ queryKey: memesQueryRoot, refetchType: 'none' });
  });

  return {
    newMemes,
    async showNew(refetch: () => Promise<unknown>) {
      setNewMemes(0);
      await refetch();
    },
  };
}

/**
 * "N new memes: show", floating over the top of the grid in a box of no height, so the cards
 * under the reader do not move when it appears.
 */
export function NewMemesPill({ count, onShow }: { count: number; onShow: () => void }) {
  return (
    <div className="pointer-events-none sticky top-20 z-10 flex h-0 items-start justify-center">
      {count > 0 ? (
        <button
          type="button"
          onClick={onShow}
          data-testid="new-memes"
          className="pointer-events-auto -translate-y-4 rounded-full bg-grind-500 px-4 py-2 text-sm font-semibold text-slate-950 shadow-lg hover:bg-grind-400 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-grind-300"
        >
          {count === 1 ? '1 new meme' : `${count} new memes`}: show
        </button>
      ) : null}
      <span className="sr-only" aria-live="polite">
        {count > 0 ? `${count} new memes posted` : ''}
      </span>
    </div>
  );
}
