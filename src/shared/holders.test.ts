import { describe, expect, it } from 'vitest';
import { holderTier, tokensToBaseUnits } from './holders.ts';
import type { SiteConfigError } from './site-schema.ts';
import { mergeSiteConfig } from './site-schema.ts';
import { defaultSite } from './site.ts';

const tiers = defaultSite.holders.tiers;

describe('holder tiers', () => {
  it('counts whole tokens in base units exactly, a finer threshold rounded up', () => {
    expect(tokensToBaseUnits(1, 6)).toBe(1_000_000n);
    expect(tokensToBaseUnits(1_000_000, 9)).toBe(1_000_000_000_000_000n);
    expect(tokensToBaseUnits(0.5, 0)).toBe(1n);
    expect(tokensToBaseUnits(1.25, 2)).toBe(125n);
    expect(tokensToBaseUnits(0.000001, 6)).toBe(1n);
  });

  it('gives the highest tier a balance reaches, at its threshold exactly', () => {
    expect(holderTier(999_999n, 6, tiers)).toBeNull();
    expect(holderTier(1_000_000n, 6, tiers)).toBe('holder');
    expect(holderTier(999_999_999_999n, 6, tiers)).toBe('holder');
    expect(holderTier(1_000_000_000_000n, 6, tiers)).toBe('whale');
    // A u64 past what a double holds.
    expect(holderTier(18_446_744_073_709_551_615n, 6, tiers)).toBe('whale');
  });

  it('is checked at start: a whale below a holder, a bad wallet or a twice-listed one stops it', () => {
    const problems = (holders: unknown) => {
      try {
        mergeSiteConfig({ holders });
      } catch (error) {
        return (error as SiteConfigError).problems;
      }
      return [];
    };
    expect(
      problems({
        tiers: {
          holder: { label: 'Holder', minTokens: 10 },
          whale: { label: 'Whale', minTokens: 5 },
        },
      }),
    ).toEqual(['holders: tiers.whale.minTokens must be more than tiers.holder.minTokens']);
    expect(
      problems({ tiers: { ...tiers, holder: { label: 'Holder', minTokens: 0.0000000001 } } }),
    ).toEqual(['holders.tiers.holder.minTokens: at most 9 decimal places']);
    expect(problems({ notCirculating: ['not-an-address'] })).toEqual([
      'holders.notCirculating[0]: must be a base58 Solana address',
    ]);
    const wallet = '9GXSqZ1mUEmTH1NwWbgFqSWNT9Z2n3fzLrVLcqoKDshM';
    expect(problems({ notCirculating: [wallet, wallet] })).toEqual([
      'holders.notCirculating: a wallet is listed twice',
    ]);
    expect(mergeSiteConfig({ holders: { notCirculating: [wallet] } }).holders).toEqual({
      tiers,
      notCirculating: [wallet],
    });
  });
});
