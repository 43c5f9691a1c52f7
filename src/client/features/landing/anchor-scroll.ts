/**
 * Keeps a `/#section` address on its section while the page settles: deferred sections load
 * above it, lists fill in, and each of those changes the height of what is above. For a few
 * seconds after arriving (or after a deferred section renders) any change in the page's height
 * puts the address's section back under the header, unless the visitor has scrolled or pressed
 * since that address was set. A press counts: the page must never move between a press and its
 * release, or the release lands on something else and the click is lost (a vote button pressed
 * while the game below loads).
 */

const SETTLE_WINDOW_MS = 4000;
const SCROLL_KEYS = new Set(['ArrowDown', 'ArrowUp', 'PageDown', 'PageUp', 'Home', 'End', ' ']);

/** The address (its hash) under which the visitor last scrolled or pressed: it settles no more. */
let visitorTookOverAt: string | null = null;
let armedUntil = 0;
let installed = false;

function noteVisitorTookOver(): void {
  visitorTookOverAt = window.location.hash;
}

function hashTarget(): HTMLElement | null {
  const id = decodeURIComponent(window.location.hash.slice(1));
  return id ? document.getElementById(id) : null;
}

function settle(): void {
  if (visitorTookOverAt === window.location.hash) return;
  hashTarget()?.scrollIntoView({ behavior: 'instant', block: 'start' });
}

function install(): void {
  if (installed) return;
  installed = true;
  const options = { passive: true, capture: true } as const;
  window.addEventListener('wheel', noteVisitorTookOver, options);
  window.addEventListener('touchmove', noteVisitorTookOver, options);
  window.addEventListener('pointerdown', noteVisitorTookOver, options);
  window.addEventListener(
    'keydown',
    (event) => {
      if (SCROLL_KEYS.has(event.key)) noteVisitorTookOver();
    },
    options,
  );
  if (typeof ResizeObserver === 'undefined') return;
  new ResizeObserver(() => {
    if (Date.now() < armedUntil) settle();
  }).observe(document.body);
}

function arm(): void {
  install();
  armedUntil = Date.now() + SETTLE_WINDOW_MS;
}

/** On arriving at the home page: go to the address's section at once (no animation). */
export function scrollToHashOnArrival(): void {
  visitorTookOverAt = null;
  arm();
  settle();
}

/** After a deferred part has rendered: put the address's section back in place. */
export function settleHashTarget(): void {
  arm();
  settle();
}
