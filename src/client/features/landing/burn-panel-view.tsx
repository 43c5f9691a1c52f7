import { ExternalLink, Flame } from 'lucide-react';
import type { BurnFigures } from './burn-figures.ts';

/** The giveaway's burn panel: the site's starting figures, or the chain's once a burn is verified. */
export function BurnPanelView({ figures }: { figures: BurnFigures }) {
  const rows = [
    ['Circulating Supply', figures.circulatingSupply],
    ['Last Burn', figures.lastBurn],
    ['Total Burned', figures.totalBurned],
  ] as const;
  const last = figures.last;
  // The chain's figures can be long (25,000,000.5): on a phone they stack, one row each. The
  // starting figures keep the three columns the server renders.
  const long = rows.some(([, value]) => value.length > 7);
  return (
    <div
      className="rounded-3xl border border-slate-800 bg-slate-900/70 p-6"
      data-testid="burn-panel"
    >
      <h3 className="flex items-center gap-2 text-lg font-bold text-white">
        <Flame className="h-5 w-5 text-orange-400" aria-hidden /> Token Burn
      </h3>
      <dl className={`mt-4 grid gap-3 ${long ? 'grid-cols-1 sm:grid-cols-3' : 'grid-cols-3'}`}>
        {rows.map(([label, value]) => (
          <div
            key={label}
            className={`rounded-xl bg-slate-950/70 p-3 text-center ${long ? 'flex items-baseline justify-between gap-3 sm:block' : ''}`}
          >
            <dt className="text-[0.7rem] font-semibold tracking-wide text-slate-400 uppercase">
              {label}
            </dt>
            <dd
              className={`mt-1 font-mono font-black text-orange-300 ${long ? 'text-xl [overflow-wrap:anywhere] sm:text-lg xl:text-xl' : 'text-xl'}`}
            >
              {value}
            </dd>
          </div>
        ))}
      </dl>
      {last ? (
        <p
          className="mt-3 flex flex-wrap items-center justify-between gap-2 text-xs text-slate-400"
          data-testid="last-burn"
        >
          <span>
            Last burn on <time dateTime={last.iso}>{last.date}</time>
          </span>
          <a
            href={last.explorerUrl}
            target="_blank"
            rel="noopener noreferrer"
            title={`Verified on chain, slot ${last.slot}`}
            className="inline-flex items-center gap-1 rounded font-semibold text-grind-300 hover:text-grind-100"
          >
            Verified <ExternalLink className="h-3.5 w-3.5" aria-hidden />
            <span className="sr-only"> burn transaction on the explorer (opens in a new tab)</span>
          </a>
        </p>
      ) : null}
    </div>
  );
}
