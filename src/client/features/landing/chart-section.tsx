import { useRef } from 'react';
import { ChartCandlestick, ExternalLink, Hourglass } from 'lucide-react';
import { explorerTokenUrl } from '#shared/explorer-links.ts';
import { chartEmbedUrl, isPreLaunch } from '#shared/site.ts';
import { useSite } from '#client/lib/site-config.ts';
import { buttonClasses } from '#client/ui/button.tsx';
import { CopyAddressButton } from './copy-address-button.tsx';
import { SectionHeading } from './section-heading.tsx';
import { useNearViewport } from '#client/lib/hydrate-later.ts';

/**
 * The third-party chart: its frame (and everything it loads) only once the section comes near
 * the viewport. Without JavaScript the browser's own lazy loading does the same.
 */
function ChartFrame({ src, title }: { src: string; title: string }) {
  const ref = useRef<HTMLDivElement>(null);
  const near = useNearViewport(ref, 'chart');
  const frame = (
    <iframe
      src={src}
      title={title}
      loading="lazy"
      width="1280"
      height="720"
      referrerPolicy="strict-origin-when-cross-origin"
      className="h-full w-full border-0"
    />
  );
  return (
    <div ref={ref} className="h-full w-full">
      {near ? frame : <noscript>{frame}</noscript>}
    </div>
  );
}

/** The contract address, where to look it up, and the live chart (a frame that loads lazily). */
export function ChartSection() {
  const site = useSite();
  const address = site.contractAddress;
  const preLaunch = isPreLaunch(site);

  return (
    <section
      id="chart"
      aria-labelledby="chart-title"
      className="scroll-mt-16 bg-slate-900/40 py-16 sm:py-24"
    >
      <div className="mx-auto max-w-5xl px-4">
        <SectionHeading id="chart-title" eyebrow="Live chart" title={`${site.ticker} Chart`}>
          Check the contract, then watch the grind in real time.
        </SectionHeading>

        <div className="mt-10 rounded-2xl border border-slate-800 bg-slate-950/80 p-4 sm:p-6">
          <p className="text-sm font-semibold text-slate-400" id="contract-label">
            Contract address ({site.chain})
          </p>
          {preLaunch ? (
            <p className="mt-2 text-lg font-bold text-grind-300" data-testid="contract-address">
              Contract address coming soon
            </p>
          ) : (
            <div className="mt-2 flex flex-col gap-3 sm:flex-row sm:items-center">
              <code
                aria-labelledby="contract-label"
                data-testid="contract-address"
                className="min-w-0 flex-1 rounded-lg border border-slate-800 bg-slate-900 px-3 py-2.5 font-mono text-sm break-all text-grind-100 sm:text-base"
              >
                {address}
              </code>
              <CopyAddressButton address={address} className="shrink-0" />
            </div>
          )}
          {preLaunch ? null : (
            <div className="mt-4 flex flex-wrap gap-3">
              {(
                [
                  ['DexScreener', site.links.dexscreener],
                  // A local chain's token is on Solana Explorer (its custom-RPC view).
                  [
                    site.solana.cluster === 'localnet' ? 'Explorer' : 'Solscan',
                    explorerTokenUrl(site),
                  ],
                ] as const
              ).map(([name, href]) => (
                <a
                  key={name}
                  href={href}
                  target="_blank"
                  rel="noopener noreferrer"
                  className={buttonClasses('secondary', 'sm')}
                >
                  {name} <ExternalLink className="h-3.5 w-3.5" aria-hidden />
                  <span className="sr-only">(opens in a new tab)</span>
                </a>
              ))}
            </div>
          )}
        </div>

        <div className="mt-6 aspect-video w-full overflow-hidden rounded-2xl border border-slate-800 bg-slate-950 shadow-2xl shadow-black/40">
          {preLaunch ? (
            <div
              className="flex h-full flex-col items-center justify-center gap-3 p-6 text-center"
              data-testid="chart-coming-soon"
            >
              <Hourglass className="h-10 w-10 text-grind-400" aria-hidden />
              <p className="text-xl font-bold text-white">Chart coming soon</p>
              <p className="max-w-sm text-sm text-slate-400">
                The live price chart appears here as soon as {site.ticker} launches.
              </p>
            </div>
          ) : (
            <ChartFrame
              src={chartEmbedUrl(address)}
              title={`${site.ticker} live price chart on DexScreener`}
            />
          )}
        </div>
        <p className="mt-3 flex items-center justify-center gap-2 text-xs text-slate-400">
          <ChartCandlestick className="h-3.5 w-3.5" aria-hidden /> Chart data by DexScreener
        </p>
      </div>
    </section>
  );
}
