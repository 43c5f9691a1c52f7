import type { HolderTierRule } from './site.ts';

/**
 * Holder tiers (docs/decisions/029-holders-at-home.md): what a member's proven wallet reaches by
 * its balance of the site's token. Pure and exact: balances are u64 base units (bigint),
 * thresholds whole tokens from SITE_CONFIG, compared in base units with no floating point.
 */
export const HOLDER_TIERS = ['holder', 'whale'] as const;
export type HolderTier = (typeof HOLDER_TIERS)[number];

export type HolderTierRules = Record<HolderTier, HolderTierRule>;

/** `minTokens` (at most 9 decimal places, site-schema.ts) in base units of a mint of `decimals`. */
export function tokensToBaseUnits(tokens: number, decimals: number): bigint {
  const [whole = '0', fraction = ''] = tokens.toFixed(9).split('.');
  const scaled = (fraction + '0'.repeat(decimals)).slice(0, decimals);
  // A threshold finer than the mint's smallest unit rounds up: never below what was set.
  const cut = fraction.slice(decimals).replace(/0+$/, '') === '' ? 0n : 1n;
  return BigInt(whole + scaled) + cut;
}

/** The highest tier `amount` (base units) reaches, or null below the first. */
export function holderTier(
  amount: bigint,
  decimals: number,
  rules: HolderTierRules,
): HolderTier | null {
  if (amount >= tokensToBaseUnits(rules.whale.minTokens, decimals)) return 'whale';
  if (amount >= tokensToBaseUnits(rules.holder.minTokens, decimals)) return 'holder';
  return null;
}

/** Shown wherever the site talks about holding its token: the one thing it never asks for. */
export const NEVER_A_TRANSACTION =
  'This site never asks you to sign a transaction: a holder is recognised by a signed message and a read of the chain, nothing else.';
