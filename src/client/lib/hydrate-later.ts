import { lazy, type ComponentType } from 'react';

/** How far ahead of the viewport deferred content starts loading: about a phone screen. */
export const NEAR_VIEWPORT_MARGIN = '800px';

/** Whether the address points at this section (`/#giveaway`): it must then render at once. */
export function isHashTarget(id: string): boolean {
  return window.location.hash === `#${id}`;
}

/** Resolves when the element with this id comes near the viewport, or at once without one. */
function whenNearViewport(id: string): Promise<void> {
  return new Promise((resolve) => {
    const element = typeof document === 'undefined' ? null : document.getElementById(id);
    if (!element || typeof IntersectionObserver === 'undefined' || isHashTarget(id)) {
      resolve();
      return;
    }
    const observer = new IntersectionObserver(
      (entries) => {
        if (!entries.some((entry) => entry.isIntersecting)) return;
        observer.disconnect();
        resolve();
      },
      { rootMargin: `${NEAR_VIEWPORT_MARGIN} 0px` },
    );
    observer.observe(element);
  });
}

let idle: Promise<void> | undefined;

/** Resolves once the page has loaded and the main thread has a moment to spare. */
function whenIdle(): Promise<void> {
  idle ??= new Promise((resolve) => {
    const afterLoad = () => {
      if (typeof requestIdleCallback === 'function') requestIdleCallback(() => resolve());
      else setTimeout(resolve, 200);
    };
    if (document.readyState === 'complete') afterLoad();
    else window.addEventListener('load', afterLoad, { once: true });
  });
  return idle;
}

/**
 * A component whose code loads, and whose server-rendered HTML comes alive (hydrates), once the
 * element with `id` comes near the viewport or the page is idle, whichever is first. Until then
 * its HTML is on screen as the server wrote it. Render it inside a <Suspense> of its own: each
 * boundary hydrates on its own, in a few short tasks. On the server it renders at once.
 */
export function lazyNearOrIdle<P extends object>(
  id: string,
  load: () => Promise<ComponentType<P>>,
): ComponentType<P> {
  return lazy(async () => {
    if (typeof window !== 'undefined') await Promise.race([whenIdle(), whenNearViewport(id)]);
    return { default: await load() };
  });
}
