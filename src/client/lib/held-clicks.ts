/**
 * Holds the clicks that land in `element` until `release()`, then replays the last one on its
 * target (links are left alone). Until React has taken a part of the server's HTML over, a
 * click there does nothing: before the app's code has run at all (boot.ts) nobody listens, and
 * while a lazy part's code is still on its way React stops the click and it is lost (a visitor
 * arriving at /#community who taps "Share with Friends" at once). The listener is the
 * document's, in the capture phase, so it sees the click before React's root does.
 */
export function holdClicks(element: Element | null): { release(): void } {
  let held: Element | null = null;
  const hold = (event: MouseEvent) => {
    // The target may be a button's icon: an SVG element, not an HTML one.
    if (!(event.target instanceof Element) || !element?.contains(event.target)) return;
    // A link works as it is: the browser follows it, as it would with no script at all.
    if (event.target.closest('a[href]')) return;
    event.preventDefault();
    event.stopPropagation();
    held = event.target;
  };
  if (element) document.addEventListener('click', hold, { capture: true });
  return {
    release() {
      document.removeEventListener('click', hold, { capture: true });
      const target = held;
      held = null;
      // Once the current task is done: release() runs in React's commit (an effect), and React
      // does not handle an event dispatched while it is committing. Not on a timer: the page's
      // timers may be slowed or paused.
      queueMicrotask(() => {
        if (target?.isConnected) {
          target.dispatchEvent(new MouseEvent('click', { bubbles: true, cancelable: true }));
        }
      });
    },
  };
}
