import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatTokenAmount, shortenAddress } from './format.ts';

describe('shortenAddress', () => {
  it('keeps the first 8 and last 8 characters of a Solana address', () => {
    expect(shortenAddress('35vnoPAFp4nYp4HdS86YKCTP3ft2KGyPhNiqWBv6TWtj')).toBe(
      '35vnoPAF...WBv6TWtj',
    );
  });

  it('returns short strings unchanged', () => {
    expect(shortenAddress('')).toBe('');
    expect(shortenAddress('1234567890abcdef')).toBe('1234567890abcdef');
    expect(shortenAddress('1234567890abcdefg')).toBe('12345678...0abcdefg');
  });
});

describe('formatTokenAmount', () => {
  it('groups thousands by default', () => {
    expect(formatTokenAmount(1_000_000_000)).toBe('1,000,000,000');
    expect(formatTokenAmount(0)).toBe('0');
    expect(formatTokenAmount(1234.5)).toBe('1,234.5');
  });

  it('shows millions the way the burn panel does', () => {
    expect(formatTokenAmount(1_000_000_000, { notation: 'millions' })).toBe('1000M');
    expect(formatTokenAmount(2_500_000, { notation: 'millions' })).toBe('2.5M');
    expect(formatTokenAmount(0, { notation: 'millions' })).toBe('0M');
  });

  it('shortens to a compact figure', () => {
    expect(formatTokenAmount(1_000_000_000, { notation: 'compact' })).toBe('1B');
    expect(formatTokenAmount(700_000_000, { notation: 'compact' })).toBe('700M');
    expect(formatTokenAmount(1_250_000, { notation: 'compact' })).toBe('1.3M');
  });

  it('writes whole amounts exactly as Intl would, without building a formatter', () => {
    const standard = new Intl.NumberFormat('en-US', { maximumFractionDigits: 9 });
    const millions = new Intl.NumberFormat('en-US', {
      maximumFractionDigits: 2,
      useGrouping: false,
    });
    const compact = new Intl.NumberFormat('en-US', {
      notation: 'compact',
      maximumFractionDigits: 1,
    });
    const amounts = fc.oneof(
      fc.integer({ min: -1_000_000, max: 1_000_000 }),
      fc.integer({ min: -(2 ** 53) + 1, max: 2 ** 53 - 1 }),
      // Values that sit on a rounding edge: ...950, ...5000, ...49999.
      fc
        .tuple(
          fc.integer({ min: 0, max: 9_999_999 }),
          fc.constantFrom(950, 949, 5_000, 4_999, 50_000, 49_999),
        )
        .map(([high, low]) => high * 100_000 + low),
    );
    fc.assert(
      fc.property(amounts, (amount) => {
        expect(formatTokenAmount(amount)).toBe(standard.format(amount));
        expect(formatTokenAmount(amount, { notation: 'millions' })).toBe(
          `${millions.format(amount / 1_000_000)}M`,
        );
        expect(formatTokenAmount(amount, { notation: 'compact' })).toBe(compact.format(amount));
      }),
      { numRuns: 2000 },
    );
  });

  it('honours a locale', () => {
    expect(formatTokenAmount(1_000_000, { locale: 'de-DE' })).toBe('1.000.000');
  });

  it('rejects values that are not amounts', () => {
    expect(() => formatTokenAmount(Number.NaN)).toThrow(RangeError);
    expect(() => formatTokenAmount(Number.POSITIVE_INFINITY)).toThrow(RangeError);
  });
});
