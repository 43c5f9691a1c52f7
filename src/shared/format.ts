/** First 8 + "..." + last 8 characters, as the footer shows a contract address. */
export function shortenAddress(address: string): string {
  if (address.length <= 16) return address;
  return `${address.slice(0, 8)}...${address.slice(-8)}`;
}

export interface TokenAmountOptions {
  /**
   * "standard": 1,000,000,000. "millions": 1000M, as the burn panel shows supply.
   * "compact": 1B, for a figure in a small space.
   */
  notation?: 'standard' | 'millions' | 'compact';
  /** Defaults to en-US so the figures read the same for every visitor and in tests. */
  locale?: string;
}

const numberFormats = new Map<string, Intl.NumberFormat>();

/** One formatter per kind: building them is what costs, and figures re-render every second. */
function numberFormat(locale: string, options: Intl.NumberFormatOptions): Intl.NumberFormat {
  const key = JSON.stringify([locale, options]);
  let format = numberFormats.get(key);
  if (!format) {
    format = new Intl.NumberFormat(locale, options);
    numberFormats.set(key, format);
  }
  return format;
}

/** a / b rounded half away from zero, for non-negative integers (exact, unlike a float divide). */
function divideRounded(a: number, b: number): number {
  const q = Math.floor(a / b);
  return (a - q * b) * 2 >= b ? q + 1 : q;
}

const COMPACT_UNITS: Array<[number, string]> = [
  [1e12, 'T'],
  [1e9, 'B'],
  [1e6, 'M'],
  [1e3, 'K'],
];

/**
 * en-US figures for whole amounts, written out by hand: building the first Intl.NumberFormat
 * loads locale data, which cost a throttled phone some 200 ms of one long task on the landing
 * page. Gives exactly what Intl gives (a property test holds it to that); anything else
 * (fractions, other locales, unsafe integers) goes to Intl.
 */
function formatWholeEnUs(amount: number, notation: TokenAmountOptions['notation']): string {
  const sign = amount < 0 ? '-' : '';
  const n = Math.abs(amount);
  if (notation === 'millions') {
    const hundredths = divideRounded(n, 10_000);
    const whole = Math.floor(hundredths / 100);
    const cents = String(hundredths % 100)
      .padStart(2, '0')
      .replace(/0+$/, '');
    return `${sign}${whole}${cents ? `.${cents}` : ''}M`;
  }
  if (notation === 'compact') {
    if (n < 1000) return `${sign}${n}`;
    let index = COMPACT_UNITS.findIndex(([unit]) => n >= unit);
    let tenths = divideRounded(n, COMPACT_UNITS[index]![0] / 10);
    // 999,950 rounds to 1000.0K, which Intl writes in the next unit up: 1M.
    if (tenths >= 10_000 && index > 0) {
      index -= 1;
      tenths = divideRounded(n, COMPACT_UNITS[index]![0] / 10);
    }
    const digit = tenths % 10;
    return `${sign}${Math.floor(tenths / 10)}${digit ? `.${digit}` : ''}${COMPACT_UNITS[index]![1]}`;
  }
  return sign + String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

export function formatTokenAmount(amount: number, options: TokenAmountOptions = {}): string {
  if (!Number.isFinite(amount)) throw new RangeError(`Not a token amount: ${amount}`);
  const locale = options.locale ?? 'en-US';
  if (locale === 'en-US' && Number.isSafeInteger(amount)) {
    return formatWholeEnUs(amount, options.notation);
  }
  if (options.notation === 'millions') {
    const millions = numberFormat(locale, {
      maximumFractionDigits: 2,
      useGrouping: false,
    }).format(amount / 1_000_000);
    return `${millions}M`;
  }
  if (options.notation === 'compact') {
    return numberFormat(locale, { notation: 'compact', maximumFractionDigits: 1 }).format(amount);
  }
  return numberFormat(locale, { maximumFractionDigits: 9 }).format(amount);
}
