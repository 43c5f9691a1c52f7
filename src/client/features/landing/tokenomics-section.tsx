import { Flame, Lock, ShieldCheck } from 'lucide-react';
import { formatTokenAmount } from '#shared/format.ts';
import { useSite } from '#client/lib/site-config.ts';
import { DistributionChart } from './distribution-chart.tsx';
import { PageSection } from '#client/ui/page-section.tsx';
import { SectionHeading } from './section-heading.tsx';

/** Supply, locks and burns, then the distribution. */
export function TokenomicsSection() {
  const site = useSite();
  const { tokenomics } = site;
  const years = tokenomics.liquidityLockYears;

  const facts = [
    {
      icon: ShieldCheck,
      label: 'Total Supply',
      value: formatTokenAmount(tokenomics.totalSupply),
      detail: tokenomics.supplyLocked
        ? `${site.ticker} tokens, supply locked`
        : `${site.ticker} tokens`,
    },
    {
      icon: Lock,
      label: 'Liquidity',
      value: `Locked ${years} ${years === 1 ? 'year' : 'years'}`,
      detail: 'No rug: the liquidity pool is locked',
    },
    {
      icon: Flame,
      label: 'Token Burns',
      value: tokenomics.weeklyBurns ? 'Weekly' : 'None',
      detail: 'Tokens burned live during the weekly livestream',
    },
  ];

  return (
    <PageSection id="tokenomics" className="py-16 sm:py-24">
      <SectionHeading id="tokenomics-title" eyebrow="Token details" title="Tokenomics">
        Simple, fair and built for the people who put in the hours.
      </SectionHeading>
      <ul className="mt-12 grid gap-4 sm:grid-cols-3">
        {facts.map(({ icon: Icon, label, value, detail }) => (
          <li
            key={label}
            className="flex gap-4 rounded-2xl border border-slate-800 bg-gradient-to-b from-slate-900 to-slate-900/40 p-5 sm:block sm:p-6"
          >
            <span className="flex h-11 w-11 shrink-0 items-center justify-center rounded-xl bg-grind-500/10 text-grind-400 ring-1 ring-grind-500/30">
              <Icon className="h-6 w-6" aria-hidden />
            </span>
            <span className="block sm:mt-4">
              <span className="block text-sm font-semibold text-slate-400">{label}</span>
              <span className="mt-1 block text-2xl font-black text-white">{value}</span>
              <span className="mt-1 block text-sm text-slate-400 sm:mt-2">{detail}</span>
            </span>
          </li>
        ))}
      </ul>
      <div className="mt-8 rounded-3xl border border-slate-800 bg-slate-900/60 p-6 sm:p-10">
        <h3 className="text-xl font-bold text-white">Distribution</h3>
        <div className="mt-6">
          <DistributionChart
            slices={tokenomics.distribution}
            totalSupply={tokenomics.totalSupply}
            ticker={site.ticker}
          />
        </div>
      </div>
    </PageSection>
  );
}
