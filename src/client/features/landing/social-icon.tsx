import { ChartCandlestick, MessagesSquare, Send } from 'lucide-react';
import type { ReactNode } from 'react';
import type { SocialId } from '#shared/site.ts';

function XLogo({ className }: { className?: string }) {
  return (
    <svg viewBox="0 0 24 24" className={className} aria-hidden fill="currentColor">
      <path d="M18.24 2.25h3.31l-7.23 8.26 8.5 11.24h-6.65l-5.21-6.82-5.97 6.82H1.68l7.73-8.84L1.25 2.25h6.83l4.71 6.23zm-1.16 17.52h1.83L7.08 4.13H5.12z" />
    </svg>
  );
}

/** Each platform's mark and colours (the spec's "icon" and "colour classes" of a social link). */
export const socialStyles: Record<
  SocialId,
  { Icon: (props: { className?: string }) => ReactNode; card: string; badge: string }
> = {
  x: {
    Icon: XLogo,
    card: 'hover:border-slate-400/70 focus-visible:border-slate-400/70',
    badge: 'bg-slate-100 text-slate-950',
  },
  telegram: {
    Icon: (props) => <Send {...props} aria-hidden />,
    card: 'hover:border-sky-400/70 focus-visible:border-sky-400/70',
    badge: 'bg-sky-500 text-white',
  },
  discord: {
    Icon: (props) => <MessagesSquare {...props} aria-hidden />,
    card: 'hover:border-indigo-400/70 focus-visible:border-indigo-400/70',
    badge: 'bg-indigo-500 text-white',
  },
  dexscreener: {
    Icon: (props) => <ChartCandlestick {...props} aria-hidden />,
    card: 'hover:border-emerald-400/70 focus-visible:border-emerald-400/70',
    badge: 'bg-emerald-500 text-slate-950',
  },
};
