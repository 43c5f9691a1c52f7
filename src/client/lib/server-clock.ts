import { sitePaths } from '#shared/api/paths.ts';
import { useSyncExternalStore } from 'react';
import { clockOffsetMs, msUntilNextSecond, SECOND_MS } from '#shared/time.ts';
import type { EndpointResponse } from '#shared/api/endpoint.ts';
import type { serverTimeEndpoint } from '#shared/api/site.ts';

/**
 * The page's one clock: the device's time corrected by the server's (a visitor whose clock is
 * off still sees the right countdowns), ticking once per whole second for every countdown on
 * the page together rather than one timer per component.
 */

let offsetMs = 0;
let syncStarted = false;

/** Now, by the server's clock as best this page knows it. */
function serverNow(): number {
  return Date.now() + offsetMs;
}

type ServerTime = EndpointResponse<typeof serverTimeEndpoint>;

async function fetchOffset(): Promise<number | undefined> {
  const sent = Date.now();
  // Not apiGet: a clock probe must skip every cache, needs no cookie, and fails silently.
  const res = await fetch(sitePaths.time, { cache: 'no-store', credentials: 'omit' });
  const received = Date.now();
  if (!res.ok) return undefined;
  // Read by hand: this module is on the first load, which carries no zod (decisions 002, 024).
  const body = (await res.json()) as Partial<Record<keyof ServerTime, unknown>>;
  return typeof body.now === 'number' && Number.isFinite(body.now)
    ? clockOffsetMs(sent, received, body.now)
    : undefined;
}

/** Asks the server for its time once per page, after the page has loaded. */
function syncServerClock(): void {
  if (syncStarted || typeof window === 'undefined') return;
  syncStarted = true;
  const run = () => {
    fetchOffset().then(
      (offset) => {
        if (offset === undefined) return;
        offsetMs = offset;
        tick();
      },
      // Offline or refused: the device's clock is the best we have.
      () => undefined,
    );
  };
  if (document.readyState === 'complete') run();
  else window.addEventListener('load', run, { once: true });
}

const listeners = new Set<() => void>();
let currentSecond = 0;
let timer: ReturnType<typeof setTimeout> | undefined;

function wholeSecond(): number {
  return Math.floor(serverNow() / SECOND_MS) * SECOND_MS;
}

function schedule(): void {
  clearTimeout(timer);
  timer = setTimeout(tick, msUntilNextSecond(serverNow()));
}

function tick(): void {
  const next = wholeSecond();
  if (next !== currentSecond) {
    currentSecond = next;
    for (const listener of listeners) listener();
  }
  if (listeners.size > 0) schedule();
}

// A background tab's timers are throttled; catch up as soon as it is seen again.
function onVisible(): void {
  if (document.visibilityState === 'visible') tick();
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  if (listeners.size === 1) {
    currentSecond = wholeSecond();
    schedule();
    document.addEventListener('visibilitychange', onVisible);
    syncServerClock();
  }
  return () => {
    listeners.delete(listener);
    if (listeners.size === 0) {
      clearTimeout(timer);
      document.removeEventListener('visibilitychange', onVisible);
    }
  };
}

function getSnapshot(): number {
  // Before anyone subscribes nothing ticks, so read the clock rather than a stale second.
  if (listeners.size === 0) currentSecond = wholeSecond();
  return currentSecond;
}

/** The corrected time to the whole second; the component re-renders once per second. */
export function useServerNow(): number {
  return useSyncExternalStore(subscribe, getSnapshot, getSnapshot);
}

const unknownTime = () => null;

/**
 * The same for a part the server renders: null there and while the browser takes the server's
 * HTML over (the two clocks differ, and the HTML was rendered at start), the time from the
 * next render on. A countdown shows its "no time yet" face until then, never a wrong one.
 */
export function useServerNowOnceHydrated(): number | null {
  return useSyncExternalStore(subscribe, getSnapshot, unknownTime);
}
