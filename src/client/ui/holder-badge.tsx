import { Gem } from 'lucide-react';
import type { HolderTier } from '#shared/holders.ts';
import { useSite } from '#client/lib/site-config.ts';
import { cn } from './cn.ts';

const TONE = {
  holder: 'border-cyan-700 text-cyan-300',
  whale: 'border-violet-600 text-violet-300',
} as const;

/**
 * A holder's badge beside their name (their page, the board): the tier their proven wallet
 * holds now, by the site's name for it (SITE_CONFIG's holders).
 */
export function HolderBadge({
  tier,
  className,
}: {
  tier: HolderTier | undefined | null;
  className?: string;
}) {
  const site = useSite();
  if (!tier) return null;
  const label = site.holders.tiers[tier].label;
  return (
    <span
      data-testid="holder-badge"
      title={`${label}: this member's proven wallet holds at least ${site.holders.tiers[tier].minTokens.toLocaleString('en-US')} ${site.ticker}`}
      className={cn(
        'inline-flex items-center gap-1 rounded-full border px-1.5 text-[11px] leading-4 font-medium whitespace-nowrap',
        TONE[tier],
        className,
      )}
    >
      <Gem className="h-3 w-3" aria-hidden />
      {label}
    </span>
  );
}
