import { useSyncExternalStore } from 'react';
import { replayPageAddress } from '#shared/api/paths.ts';
import { createStore } from '#client/lib/store.ts';

// A replay has an address anyone can open: `/#replay-<entryId>`. A hash on `/` (not a route of
// its own) because the server renders `/`; the viewer opens when the page loads with it and
// whenever it changes, and closing the viewer clears it.

const PREFIX = '#replay-';

/** The entry whose replay a location hash asks for, or null. */
export function entryIdFromHash(hash: string): number | null {
  if (!hash.startsWith(PREFIX)) return null;
  const digits = hash.slice(PREFIX.length);
  if (!/^[1-9]\d{0,14}$/.test(digits)) return null;
  return Number(digits);
}

// The address bar is the value; history.replaceState fires no hashchange, so closing tells the
// subscribers itself.
const closed = createStore(null);

function subscribe(listener: () => void): () => void {
  const unsubscribe = closed.subscribe(listener);
  window.addEventListener('hashchange', listener);
  return () => {
    unsubscribe();
    window.removeEventListener('hashchange', listener);
  };
}

const currentEntryId = () => entryIdFromHash(window.location.hash);

/** The entry whose replay the address asks for (null on the server and without one). */
export function useReplayAddress(): number | null {
  return useSyncExternalStore(subscribe, currentEntryId, () => null);
}

/** Puts a replay's address in the location bar (a history entry, so it can be copied). */
export function openReplay(entryId: number): void {
  window.location.hash = new URL(replayPageAddress(entryId), window.location.origin).hash;
}

/** Takes the replay's address out of the location bar without adding a history entry. */
export function closeReplay(): void {
  if (currentEntryId() === null) return;
  const { pathname, search } = window.location;
  window.history.replaceState(window.history.state, '', `${pathname}${search}`);
  closed.notify();
}
