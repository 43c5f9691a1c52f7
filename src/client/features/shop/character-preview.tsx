import { useEffect, useRef } from 'react';
import type { CharacterKey } from '#shared/characters.ts';
import { drawCharacterPreview } from '#client/lib/character-art.ts';

/**
 * The character drawn on a canvas, sharp at any pixel density. A legendary character's
 * sparkles twinkle while it is on screen, unless the visitor asked for reduced motion.
 */
export function CharacterPreview({
  characterKey,
  name,
  animate,
  className,
}: {
  characterKey: CharacterKey;
  name: string;
  animate: boolean;
  className?: string;
}) {
  const canvasRef = useRef<HTMLCanvasElement>(null);

  useEffect(() => {
    const canvas = canvasRef.current;
    if (!canvas) return;
    drawCharacterPreview(canvas, characterKey);
    const still = window.matchMedia?.('(prefers-reduced-motion: reduce)').matches ?? false;
    if (!animate || still) {
      // The card's size changes at breakpoints: redraw sharp at the new size.
      const resize =
        typeof ResizeObserver === 'function'
          ? new ResizeObserver(() => drawCharacterPreview(canvas, characterKey))
          : null;
      resize?.observe(canvas);
      return () => resize?.disconnect();
    }

    let frame = 0;
    let visible = true;
    const tick = (time: number) => {
      if (visible) drawCharacterPreview(canvas, characterKey, time);
      frame = requestAnimationFrame(tick);
    };
    const observer =
      typeof IntersectionObserver === 'function'
        ? new IntersectionObserver(([entry]) => {
            visible = entry?.isIntersecting ?? true;
          })
        : null;
    observer?.observe(canvas);
    frame = requestAnimationFrame(tick);
    return () => {
      cancelAnimationFrame(frame);
      observer?.disconnect();
    };
  }, [characterKey, animate]);

  return (
    <canvas
      ref={canvasRef}
      width={112}
      height={112}
      role="img"
      aria-label={`${name} preview`}
      data-character={characterKey}
      className={className ?? 'h-28 w-28'}
    />
  );
}
