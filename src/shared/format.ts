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

export function formatTokenAmount(amount: number, options: TokenAmountOptions = {}): string {
  if (!Number.isFinite(amount)) throw new RangeError(`Not a token amount: ${amount}`);
  const locale = options.locale ?? 'en-US';
  if (options.notation === 'millions') {
    const millions = new Intl.NumberFormat(locale, {
      maximumFractionDigits: 2,
      useGrouping: false,
    }).format(amount / 1_000_000);
    return `${millions}M`;
  }
  if (options.notation === 'compact') {
    return new Intl.NumberFormat(locale, { notation: 'compact', maximumFractionDigits: 1 }).format(
      amount,
    );
  }
  return new Intl.NumberFormat(locale, { maximumFractionDigits: 9 }).format(amount);
}
