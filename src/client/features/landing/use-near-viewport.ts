import { useEffect, useState, type RefObject } from 'react';

/** How far ahead of the viewport deferred content starts loading: about a phone screen. */
export const NEAR_VIEWPORT_MARGIN = '800px';

/** True once the element comes within the margin of the viewport (and stays true). */
export function useNearViewport(ref: RefObject<Element | null>, force = false): boolean {
  const [near, setNear] = useState(force);
  useEffect(() => {
    if (near) return;
    const element = ref.current;
    if (!element || typeof IntersectionObserver === 'undefined') {
      setNear(true);
      return;
    }
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((entry) => entry.isIntersecting)) setNear(true);
      },
      { rootMargin: `${NEAR_VIEWPORT_MARGIN} 0px` },
    );
    observer.observe(element);
    return () => observer.disconnect();
  }, [near, ref]);
  return near || force;
}
