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

export function formatTokenAmount(amount: number, options: TokenAmountOptions = {}): string {
  if (!Number.isFinite(amount)) throw new RangeError(`Not a token amount: ${amount}`);
  const locale = options.locale ?? 'en-US';
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
