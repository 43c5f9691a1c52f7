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
  return (
    <div
      className="rounded-3xl border border-slate-800 bg-slate-900/70 p-6"
      data-testid="burn-panel"
    >
      <h3 className="flex items-center gap-2 text-lg font-bold text-white">
        <Flame className="h-5 w-5 text-orange-400" aria-hidden /> Token Burn
      </h3>
      <dl className="mt-4 grid grid-cols-3 gap-3">
        {rows.map(([label, value]) => (
          <div key={label} className="rounded-xl bg-slate-950/70 p-3 text-center">
            <dt className="text-[0.7rem] font-semibold tracking-wide text-slate-400 uppercase">
              {label}
            </dt>
            <dd className="mt-1 font-mono text-xl font-black text-orange-300">{value}</dd>
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
