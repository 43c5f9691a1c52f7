import { describe, expect, it } from 'vitest';
import type { BurnsResponse } from '#shared/api/chain.ts';
import { defaultSite } from '#shared/site.ts';
import { burnFigures, wholeTokens } from './burn-figures.ts';

const burn = (amount: string, burnedAt: string, signature: string) => ({
  signature,
  slot: '4242',
  amount,
  decimals: 6,
  mint: 'Mint111',
  burnedAt,
  explorerUrl: `https://solscan.io/tx/${signature}`,
});

describe('burnFigures', () => {
  it("shows the site config's starting figures before any verified burn", () => {
    const empty: BurnsResponse = { burns: [], totalBurned: null, decimals: null };
    for (const response of [undefined, empty]) {
      expect(burnFigures(defaultSite, response)).toEqual({
        circulatingSupply: '1000M',
        lastBurn: '0',
        totalBurned: '0',
        last: null,
      });
    }
  });

  it('shows the last verified burn, the total and the supply left, from base units', () => {
    const response: BurnsResponse = {
      burns: [
        burn('2000000000000', '2026-11-22T20:15:00.000Z', 'Second'),
        burn('1500000', '2026-11-15T20:00:00.000Z', 'First'),
      ],
      totalBurned: '2000001500000',
      decimals: 6,
    };
    expect(burnFigures(defaultSite, response)).toEqual({
      circulatingSupply: '998M',
      lastBurn: '2,000,000',
      totalBurned: '2,000,001.5',
      last: {
        date: 'Nov 22, 2026',
        iso: '2026-11-22T20:15:00.000Z',
        explorerUrl: 'https://solscan.io/tx/Second',
        slot: '4242',
      },
    });
  });

  it('keeps fractions of a token and never shows a negative supply', () => {
    expect(wholeTokens('1', 6)).toBe(0.000001);
    expect(wholeTokens('123456789', 3)).toBe(123456.789);
    const all: BurnsResponse = {
      burns: [burn('2000000000000000', '2026-11-22T00:00:00.000Z', 'All')],
      totalBurned: '2000000000000000',
      decimals: 6,
    };
    expect(burnFigures(defaultSite, all).circulatingSupply).toBe('0M');
  });
});
