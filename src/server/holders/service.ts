import type { Kysely } from 'kysely';
import type { HolderBadge, HolderStatus } from '#shared/api/members.ts';
import { holderTier, type HolderTier } from '#shared/holders.ts';
import type { SiteConfig } from '#shared/site.ts';
import { formatTokenUnits } from '#shared/format-units.ts';
import { HOUR_MS, MINUTE_MS } from '#shared/time.ts';
import { ChainUnavailable, type ChainRpc } from '../chain/rpc.ts';
import type { Clock } from '../clock.ts';
import type { Database } from '../db/database.ts';
import { HttpError } from '../http-error.ts';
import { enforceRateLimit, type RateRule } from '../security/rate-limit.ts';
import type { RateLimiter } from '../security/rate-limit.ts';
import { findWallet } from '../wallet/repository.ts';
import {
  currentHolderBalance,
  currentTiers,
  postponeCheck,
  saveHolderBalance,
  walletsDue,
  type HolderBalanceRow,
} from './repository.ts';

/**
 * Holder perks (docs/decisions/029-holders-at-home.md): a member's proven wallet (a signed
 * message, never a transaction) and a read of the chain at `finalized` of what it holds of the
 * site's token, under both token programs. The read is kept (holder_balances) and done again
 * about every six hours by the maintenance timer, spread over an hour by member, and when the
 * member asks (rate-limited). A tier lost removes the badge; what was bought with it stays.
 */

export const HOLDER_RECHECK_MS = 6 * HOUR_MS;
/** Each member's reads fall somewhere in the hour after their six: not every wallet at once. */
export const RECHECK_SPREAD_MS = HOUR_MS;
/** Wallets read per maintenance run (every ten minutes): 1,800 members per six hours at most. */
const CHECKS_PER_RUN = 50;
/** A read that failed (the RPC down) is tried again this much later; the last read stands. */
const RETRY_AFTER_FAILURE_MS = 30 * MINUTE_MS;
/** A member's own "check now": each is two RPC reads. */
export const CHECKS_PER_MEMBER: RateRule = { limit: 5, windowMs: HOUR_MS };
const CHECKS_PER_NETWORK: RateRule = { limit: 20, windowMs: HOUR_MS };

export interface HolderContext {
  db: Kysely<Database>;
  clock: Clock;
  site: SiteConfig;
  /** Undefined without SOLANA_RPC_URL: nothing is read, the last reads stand. */
  rpc: ChainRpc | undefined;
  /** The mint's decimals, read once (a mint's decimals never change). */
  decimals?: number;
}

/** Where in the spread hour member `userId`'s reads fall (a fixed hash: no clock, no chance). */
function spreadFor(userId: number): number {
  return (Math.imul(userId, 2654435761) >>> 0) % RECHECK_SPREAD_MS;
}

/** Reads the wallet's balance now and keeps it with its tier and the next read's time. */
async function readWallet(
  ctx: HolderContext,
  rpc: ChainRpc,
  userId: number,
  address: string,
): Promise<HolderBalanceRow> {
  const mint = ctx.site.contractAddress;
  ctx.decimals ??= (await rpc.tokenSupply(mint)).decimals;
  const amount = await rpc.tokenBalance(address, mint);
  const now = ctx.clock.now();
  const row: HolderBalanceRow = {
    user_id: userId,
    address,
    amount: amount.toString(),
    decimals: ctx.decimals,
    tier: holderTier(amount, ctx.decimals, ctx.site.holders.tiers),
    checked_at: now,
    next_check_at: now + HOLDER_RECHECK_MS + spreadFor(userId),
  };
  await saveHolderBalance(ctx.db, row);
  return row;
}

/**
 * The maintenance timer's part: reads the wallets that are due (CHECKS_PER_RUN at most). The
 * first failure stops the run and puts that wallet off: an RPC that is down is not asked fifty
 * times. Answers how many were read.
 */
export async function recheckDueWallets(ctx: HolderContext): Promise<number> {
  const { rpc } = ctx;
  if (!rpc || !ctx.site.contractAddress) return 0;
  let read = 0;
  for (const wallet of await walletsDue(ctx.db, ctx.clock.now(), CHECKS_PER_RUN)) {
    try {
      await readWallet(ctx, rpc, wallet.user_id, wallet.address);
      read += 1;
    } catch (error) {
      if (!(error instanceof ChainUnavailable)) throw error;
      await postponeCheck(ctx.db, wallet.user_id, ctx.clock.now() + RETRY_AFTER_FAILURE_MS);
      throw error;
    }
  }
  return read;
}

/** The member's "check now": counted per member and per network, then one read. */
export async function checkHolderNow(
  ctx: HolderContext,
  rateLimiter: RateLimiter,
  userId: number,
  network: string,
): Promise<void> {
  const tooMany = 'Too many holder checks. The site checks by itself every few hours.';
  await enforceRateLimit(rateLimiter, `holder-check:user:${userId}`, CHECKS_PER_MEMBER, tooMany);
  await enforceRateLimit(rateLimiter, `holder-check:net:${network}`, CHECKS_PER_NETWORK, tooMany);
  if (!ctx.site.contractAddress) {
    throw new HttpError(
      404,
      'The token has not launched: there is nothing to hold yet',
      'NO_CONTRACT_ADDRESS',
    );
  }
  if (!ctx.rpc) {
    // Nothing to check on this site (not a dependency that is down): 404, not a 5xx.
    throw new HttpError(
      404,
      'This site reads no blockchain (no Solana RPC is configured), so it cannot check holdings',
      'CHAIN_NOT_CONFIGURED',
    );
  }
  const wallet = await findWallet(ctx.db, userId);
  if (!wallet) {
    throw new HttpError(
      409,
      'Link a wallet first: the site reads the balance of your proven wallet',
      'NO_WALLET',
    );
  }
  try {
    await readWallet(ctx, ctx.rpc, userId, wallet.address);
  } catch (error) {
    if (error instanceof ChainUnavailable) {
      throw new HttpError(
        503,
        `${error.message}; your last check stands, try again later`,
        error.code,
      );
    }
    throw error;
  }
}

export function badgeOf(site: SiteConfig, tier: HolderTier): HolderBadge {
  return { tier, label: site.holders.tiers[tier].label };
}

/** The tiers `userIds` hold now, for badges beside names (leaderboard, memes). */
export function holderTiers(
  db: Kysely<Database>,
  userIds: readonly number[],
): Promise<Map<number, HolderTier>> {
  return currentTiers(db, userIds);
}

/** The member's last read of their wallet now, or null before its first. */
export async function holderStatus(
  db: Kysely<Database>,
  site: SiteConfig,
  userId: number,
): Promise<HolderStatus | null> {
  const row = await currentHolderBalance(db, userId);
  if (!row) return null;
  return {
    address: row.address,
    badge: row.tier ? badgeOf(site, row.tier) : null,
    balance: formatTokenUnits(row.amount, row.decimals),
    checkedAt: new Date(row.checked_at).toISOString(),
    nextCheckAt: new Date(row.next_check_at).toISOString(),
  };
}

/**
 * A holder character's sale: refused, with the reason, to a member whose wallet does not hold a
 * tier now (shop/service.ts). What a member bought stays theirs when the tier is lost.
 */
export async function refuseUnlessHolder(
  db: Kysely<Database>,
  site: SiteConfig,
  userId: number,
  characterName: string,
): Promise<void> {
  const row = await currentHolderBalance(db, userId);
  if (row?.tier) return;
  const holder = site.holders.tiers.holder;
  const why = !row
    ? 'link a wallet holding it and check it from your page'
    : `your wallet held ${formatTokenUnits(row.amount, row.decimals)} at its last check`;
  throw new HttpError(
    403,
    `${characterName} is for ${holder.label}s of ${site.ticker}: at least ${holder.minTokens.toLocaleString('en-US')} ${site.ticker} in your proven wallet (${why})`,
    'HOLDERS_ONLY',
  );
}
