import {
  createElement,
  lazy,
  useEffect,
  useState,
  useSyncExternalStore,
  type ComponentType,
  type RefObject,
} from 'react';
import { holdClicks } from './held-clicks.ts';

/** How far ahead of the viewport deferred content starts loading: about a phone screen. */
const NEAR_VIEWPORT_MARGIN = '800px';

/** Whether the address points at this section (`/#giveaway`): it must then render at once. */
function isHashTarget(id: string): boolean {
  return window.location.hash === `#${id}`;
}

/** Calls `onNear` once `element` comes within the margin of the viewport; returns the stop. */
function onceNearViewport(element: Element, onNear: () => void): () => void {
  const observer = new IntersectionObserver(
    (entries) => {
      if (!entries.some((entry) => entry.isIntersecting)) return;
      observer.disconnect();
      onNear();
    },
    { rootMargin: `${NEAR_VIEWPORT_MARGIN} 0px` },
  );
  observer.observe(element);
  return () => observer.disconnect();
}

/** Whether `element` counts as near at once: there is none, no observer, or the address is it. */
function nearAtOnce(element: Element | null, id: string | undefined): element is null {
  return (
    !element ||
    typeof IntersectionObserver === 'undefined' ||
    (id !== undefined && isHashTarget(id))
  );
}

/** Resolves when the element with this id comes near the viewport, or at once without one. */
function whenNearViewport(id: string): Promise<void> {
  return new Promise((resolve) => {
    const element = typeof document === 'undefined' ? null : document.getElementById(id);
    if (nearAtOnce(element, id)) resolve();
    else onceNearViewport(element, resolve);
  });
}

/**
 * True once the element comes near the viewport (and from then on), or at once when the address
 * points at `targetId`. False on the first render, so it reads the same on the server and while
 * the browser takes the server's HTML over. The same margin and address rule as the lazy parts.
 */
export function useNearViewport(ref: RefObject<Element | null>, targetId?: string): boolean {
  const [near, setNear] = useState(false);
  useEffect(() => {
    if (near) return;
    const element = ref.current;
    if (nearAtOnce(element, targetId)) {
      setNear(true);
      return;
    }
    return onceNearViewport(element, () => setNear(true));
  }, [near, ref, targetId]);
  return near;
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

/** Resolves when the visitor first reaches for the element with this id (pointer or keyboard). */
function whenReachedFor(id: string): Promise<void> {
  return new Promise((resolve) => {
    const element = document.getElementById(id);
    if (!element) return resolve();
    const options = { capture: true, once: true, passive: true } as const;
    for (const type of ['pointerdown', 'focusin', 'touchstart']) {
      element.addEventListener(type, () => resolve(), options);
    }
  });
}

/**
 * A component whose server-rendered HTML comes alive (hydrates) once the element with `id`
 * comes near the viewport, the page is idle, or the visitor reaches for it, whichever is first.
 * Its code starts loading at once; a click that lands before it has come alive is held and
 * replayed once it has. Render it inside a <Suspense> of its own: each boundary hydrates on its
 * own, in a few short tasks. On the server it renders at once.
 */
export function lazyNearOrIdle<P extends object>(
  id: string,
  load: () => Promise<ComponentType<P>>,
): ComponentType<P> {
  if (typeof window === 'undefined') return lazy(async () => ({ default: await load() }));
  // From the start: a click may come before React has even begun to take the page over.
  const clicks = holdClicks(document.getElementById(id));
  return lazy(async () => {
    const code = load();
    await Promise.race([whenIdle(), whenNearViewport(id), whenReachedFor(id)]);
    // Code that fails to load must not leave the section's clicks held for good.
    const Component = await code.catch((error: unknown) => {
      clicks.release();
      throw error;
    });
    function CameAlive(props: P) {
      // Runs once the boundary has hydrated: its handlers are attached now.
      useEffect(() => clicks.release(), []);
      return createElement(Component, props);
    }
    return { default: CameAlive };
  });
}

/**
 * A component that nothing on the first screen needs (it renders nothing on the server): its code
 * loads once the page is idle. Render it inside a <Suspense fallback={null}>.
 */
export function lazyWhenIdle<P extends object>(
  load: () => Promise<{ default: ComponentType<P> }>,
): ComponentType<P> {
  return lazy(async () => {
    if (typeof window !== 'undefined') await whenIdle();
    return load();
  });
}

const noSubscription = () => () => undefined;

/**
 * True while React takes the server's HTML over (and on the server), false from the next render
 * on. A part that hydrates late renders what the server wrote first, then what it knows now
 * (e.g. the session, which may have arrived in the meantime).
 */
export function useHydrating(): boolean {
  return useSyncExternalStore(
    noSubscription,
    () => false,
    () => true,
  );
}
