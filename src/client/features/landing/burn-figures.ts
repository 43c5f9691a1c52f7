import type { BurnsResponse } from '#shared/api/chain.ts';
import { formatTokenAmount } from '#shared/format.ts';
import type { SiteConfig } from '#shared/site.ts';

/** The burn panel's three figures, and the last burn's proof once there is one. */
export interface BurnFigures {
  circulatingSupply: string;
  lastBurn: string;
  totalBurned: string;
  last: { date: string; iso: string; explorerUrl: string; slot: string } | null;
}

/** Base units (a decimal string) in whole tokens, exact up to a number's precision. */
export function wholeTokens(baseUnits: string, decimals: number): number {
  const units = BigInt(baseUnits);
  const scale = 10n ** BigInt(decimals);
  return Number(units / scale) + Number(units % scale) / Number(scale);
}

/**
 * The site config's starting figures before any verified burn (what the server renders), and
 * after one the chain's: the last burn, the total, and the total supply minus the total burned.
 */
export function burnFigures(
  site: Pick<SiteConfig, 'giveaway' | 'tokenomics'>,
  burns: BurnsResponse | undefined,
  locale = 'en-US',
): BurnFigures {
  const last = burns?.burns[0];
  if (!burns || !last || burns.totalBurned === null || burns.decimals === null) {
    const { burn } = site.giveaway;
    return {
      circulatingSupply: formatTokenAmount(burn.circulatingSupply, { notation: 'millions' }),
      lastBurn: formatTokenAmount(burn.lastBurn),
      totalBurned: formatTokenAmount(burn.totalBurned),
      last: null,
    };
  }
  const total = wholeTokens(burns.totalBurned, burns.decimals);
  return {
    circulatingSupply: formatTokenAmount(Math.max(0, site.tokenomics.totalSupply - total), {
      notation: 'millions',
      locale,
    }),
    lastBurn: formatTokenAmount(wholeTokens(last.amount, last.decimals), { locale }),
    totalBurned: formatTokenAmount(total, { locale }),
    last: {
      date: new Date(last.burnedAt).toLocaleDateString(locale, {
        dateStyle: 'medium',
        timeZone: 'UTC',
      }),
      iso: last.burnedAt,
      explorerUrl: last.explorerUrl,
      slot: last.slot,
    },
  };
}
