import type { ReactNode } from 'react';

/** The eyebrow, title and intro every landing section opens with. */
export function SectionHeading({
  id,
  eyebrow,
  title,
  children,
}: {
  id: string;
  eyebrow: string;
  title: string;
  children?: ReactNode;
}) {
  return (
    <header className="mx-auto max-w-2xl text-center">
      <p className="text-xs font-bold tracking-[0.2em] text-grind-400 uppercase">{eyebrow}</p>
      <h2 id={id} className="mt-2 text-3xl font-black tracking-tight text-white sm:text-4xl">
        {title}
      </h2>
      {children ? <p className="mt-4 text-base text-slate-300 sm:text-lg">{children}</p> : null}
    </header>
  );
}
