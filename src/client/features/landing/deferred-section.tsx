import { Suspense, useEffect, useRef, type ReactNode } from 'react';
import { cn } from '#client/ui/cn.ts';
import { settleHashTarget } from './anchor-scroll.ts';
import { useNearViewport } from '#client/lib/hydrate-later.ts';

function AfterMount({ run }: { run: () => void }) {
  useEffect(run, [run]);
  return null;
}

/**
 * A section whose code loads only when it comes near the viewport (or when the address points
 * at it). Until then a placeholder with the section's id and its usual height holds the place,
 * so anchors work and nothing below it jumps.
 */
export function DeferredSection({
  id,
  title,
  needsScript,
  reserveClassName,
  children,
}: {
  id: string;
  /** Shown in the placeholder, so the page reads right even before the code arrives. */
  title: string;
  /** What a reader without JavaScript is told instead, e.g. "The gallery needs JavaScript". */
  needsScript: string;
  /** Height classes matching the loaded section, e.g. "min-h-[1400px] lg:min-h-[1100px]". */
  reserveClassName: string;
  children: ReactNode;
}) {
  const placeholderRef = useRef<HTMLElement>(null);
  const near = useNearViewport(placeholderRef, id);

  const placeholder = (
    <section
      ref={placeholderRef}
      id={id}
      aria-busy="true"
      aria-label={title}
      data-deferred="pending"
      className={cn('scroll-mt-16 bg-slate-950 py-16 sm:py-20', reserveClassName)}
    >
      <div className="mx-auto max-w-7xl px-4">
        <p className="text-center text-3xl font-extrabold text-grind-300/40 sm:text-4xl">{title}</p>
        <noscript>
          <p className="mt-4 text-center text-lg text-slate-300">{needsScript}</p>
        </noscript>
        <div className="mx-auto mt-10 h-64 max-w-4xl animate-pulse rounded-2xl bg-slate-900/70 motion-reduce:animate-none" />
      </div>
    </section>
  );

  if (!near) return placeholder;
  return (
    <Suspense fallback={placeholder}>
      {children}
      <AfterMount run={settleHashTarget} />
    </Suspense>
  );
}
