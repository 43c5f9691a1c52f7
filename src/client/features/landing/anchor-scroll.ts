/**
 * Keeps a `/#section` link on its section while deferred sections above it load and change
 * height: each time one loads, the page scrolls back to the address's section, unless the
 * visitor has scrolled by themselves since that address was set.
 */

let scrolledByVisitorAt: string | null = null;
let listening = false;

const SCROLL_KEYS = new Set(['ArrowDown', 'ArrowUp', 'PageDown', 'PageUp', 'Home', 'End', ' ']);

function noteVisitorScroll(): void {
  scrolledByVisitorAt = window.location.hash;
}

function listen(): void {
  if (listening) return;
  listening = true;
  const options = { passive: true, capture: true } as const;
  window.addEventListener('wheel', noteVisitorScroll, options);
  window.addEventListener('touchmove', noteVisitorScroll, options);
  window.addEventListener(
    'keydown',
    (event) => {
      if (SCROLL_KEYS.has(event.key)) noteVisitorScroll();
    },
    options,
  );
}

function hashTarget(): HTMLElement | null {
  const id = decodeURIComponent(window.location.hash.slice(1));
  return id ? document.getElementById(id) : null;
}

/** On arriving at the home page: go to the address's section at once (no animation). */
export function scrollToHashOnArrival(): void {
  listen();
  scrolledByVisitorAt = null;
  hashTarget()?.scrollIntoView({ behavior: 'instant', block: 'start' });
}

/** After a deferred section has rendered: put the address's section back in place. */
export function settleHashTarget(): void {
  listen();
  if (scrolledByVisitorAt === window.location.hash) return;
  hashTarget()?.scrollIntoView({ behavior: 'instant', block: 'start' });
}
