import type { ReactNode } from 'react';
import { cn } from './cn.ts';

/**
 * A section of the home page: its id is the anchor the header's links scroll to (kept clear of
 * the sticky header), it is named by its heading, which carries the id `<id>-title`, and its
 * content sits in the page's centred column. `className` gives its background and padding.
 */
export function PageSection({
  id,
  className,
  children,
}: {
  id: string;
  className: string;
  children: ReactNode;
}) {
  return (
    <section id={id} aria-labelledby={`${id}-title`} className={cn('scroll-mt-16', className)}>
      <div className="mx-auto max-w-7xl px-4">{children}</div>
    </section>
  );
}

/** The title and intro of a section you use rather than read: the gallery, the game. */
export function FeatureHeading({
  sectionId,
  title,
  children,
}: {
  sectionId: string;
  title: string;
  children: ReactNode;
}) {
  return (
    <header className="mx-auto max-w-2xl text-center">
      <h2 id={`${sectionId}-title`} className="text-3xl font-extrabold text-grind-300 sm:text-4xl">
        {title}
      </h2>
      <p className="mt-3 text-slate-300">{children}</p>
    </header>
  );
}
