/**
 * Keeps a `/#section` address on its section while the page settles: deferred sections load
 * above it, lists fill in, and each of those changes the height of what is above. For a few
 * seconds after arriving (or after a deferred section renders) any change in the page's height
 * puts the address's section back under the header, unless the visitor has scrolled or pressed
 * under that address (lib/visitor-took-over.ts), also before the app had started. A press
 * counts: the page must never move between a press and its release, or the release lands on
 * something else and the click is lost (a vote button pressed while the game below loads).
 */
import { forgetVisitor, visitorTookOverHere } from '#client/lib/visitor-took-over.ts';

const SETTLE_WINDOW_MS = 4000;

let armedUntil = 0;
let observing = false;

function hashTarget(): HTMLElement | null {
  const id = decodeURIComponent(window.location.hash.slice(1));
  return id ? document.getElementById(id) : null;
}

function settle(): void {
  if (visitorTookOverHere()) return;
  hashTarget()?.scrollIntoView({ behavior: 'instant', block: 'start' });
}

function arm(): void {
  armedUntil = Date.now() + SETTLE_WINDOW_MS;
  if (observing || typeof ResizeObserver === 'undefined') return;
  observing = true;
  new ResizeObserver(() => {
    if (Date.now() < armedUntil) settle();
  }).observe(document.body);
}

/**
 * On arriving at the home page: go to the address's section at once (no animation), unless the
 * visitor has already moved on from it. Returns the clean-up for leaving the page, which forgets
 * what the visitor did there (an effect's clean-up: React's development mode runs it once at
 * mount too, so there a scroll made before the app started is not kept).
 */
export function scrollToHashOnArrival(): () => void {
  arm();
  settle();
  return forgetVisitor;
}

/** After a deferred part has rendered: put the address's section back in place. */
export function settleHashTarget(): void {
  arm();
  settle();
}
