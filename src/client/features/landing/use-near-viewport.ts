import { useEffect, useState, type RefObject } from 'react';
import { isHashTarget, NEAR_VIEWPORT_MARGIN } from '#client/lib/hydrate-later.ts';

/**
 * True once the element comes within the margin of the viewport (and stays true), or at once
 * when the address points at `targetId`. False on the first render, so it reads the same on the
 * server and while the browser takes the server's HTML over.
 */
export function useNearViewport(ref: RefObject<Element | null>, targetId?: string): boolean {
  const [near, setNear] = useState(false);
  useEffect(() => {
    if (near) return;
    const element = ref.current;
    if (
      !element ||
      typeof IntersectionObserver === 'undefined' ||
      (targetId !== undefined && isHashTarget(targetId))
    ) {
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
  }, [near, ref, targetId]);
  return near;
}
