/**
 * Whether the visitor has taken the page over under the current address: scrolled it (a wheel,
 * a touch, a scroll key) or pressed on it. A page that moves itself (the landing page keeping a
 * `/#section` address in place) stops once they have. Watched from the page's first script
 * (boot.ts), so what a visitor does while the app's code is still on its way counts as well.
 */

/** The keys that scroll a page. */
const SCROLL_KEY = /^(Arrow(Up|Down)|Page(Up|Down)|Home|End| )$/;

/** The address (its hash) under which the visitor last scrolled or pressed. */
let tookOverAt: string | null = null;

/** Starts watching; boot.ts calls it once, before anything else can move the page. */
export function watchVisitor(): void {
  const note = (event: Event) => {
    if (!(event instanceof KeyboardEvent) || SCROLL_KEY.test(event.key)) {
      tookOverAt = location.hash;
    }
  };
  // In the capture phase, before any handler can stop it. A wheel or touch listener on the window
  // is passive by default: it never holds scrolling up.
  for (const type of ['wheel', 'touchmove', 'pointerdown', 'keydown']) {
    addEventListener(type, note, true);
  }
}

/** True once the visitor has scrolled or pressed under the address the page has now. */
export function visitorTookOverHere(): boolean {
  return tookOverAt === location.hash;
}

/** On leaving the page: coming back to the same address is a new arrival. */
export function forgetVisitor(): void {
  tookOverAt = null;
}
