import { MINUTE_MS } from '#shared/time.ts';
import type { LinkWalletBody, WalletChallenge, WalletResponse } from '#shared/api/wallet.ts';
import { shortAddress } from '#shared/siws.ts';
import { findUserPasswordHash } from '../accounts/repository.ts';
import type { AppDeps, SessionUser } from '../deps.ts';
import type { Transaction } from 'kysely';
import type { Database } from '../db/database.ts';
import { HttpError } from '../http-error.ts';
import { hasPassword, verifyPassword } from '../security/password.ts';
import { enforceRateLimit, type RateRule } from '../security/rate-limit.ts';
import { isUniqueViolation } from '../db/errors.ts';
import {
  findNonce,
  findWallet,
  lockWallet,
  recordWalletChange,
  replaceNonce,
  saveWallet,
  spendNonce,
  walletOwner,
  type UserWalletRow,
} from './repository.ts';
import {
  checkSignedMessage,
  issueMessage,
  nonceUsed,
  proveIssued,
  type SiteIdentity,
} from './siws-checks.ts';

export type { SiteIdentity };

/** Long enough to open a wallet and read the message; short enough that a leaked one dies. */
export const CHALLENGE_TTL_MS = 10 * MINUTE_MS;
const LINK_STATEMENT =
  'Link this wallet to my account, so the weekly prize can be paid to it. This is not a transaction and costs nothing.';
/**
 * Challenges and link attempts (each one an argon2 hash when it names a password): a member
 * links a wallet a few times a year, so a handful per quarter hour is plenty, and a script
 * neither fills wallet_nonces nor guesses a session's password.
 */
const WALLET_WINDOW_MS = 15 * MINUTE_MS;
export const CHALLENGES_PER_MEMBER: RateRule = { limit: 10, windowMs: WALLET_WINDOW_MS };
export const CHALLENGES_PER_NETWORK: RateRule = { limit: 30, windowMs: WALLET_WINDOW_MS };
export const LINKS_PER_MEMBER: RateRule = { limit: 10, windowMs: WALLET_WINDOW_MS };
const LINKS_PER_NETWORK: RateRule = { limit: 30, windowMs: WALLET_WINDOW_MS };
const TOO_MANY = 'Too many wallet attempts. Please try again later.';

/**
 * What linking a wallet needs: the routes pass the app's deps, a rehearsal's demo members
 * (rehearsal/demo-week.ts) the CLI's database, clock and limiter.
 */
export type WalletDeps = Pick<AppDeps, 'db' | 'clock' | 'rateLimiter'>;

/** Counts one attempt against the member and against the caller's network (clientNetwork). */
async function limitAttempts(
  deps: WalletDeps,
  kind: 'challenge' | 'link',
  user: SessionUser,
  network: string,
  rules: [perMember: RateRule, perNetwork: RateRule],
): Promise<void> {
  await enforceRateLimit(deps.rateLimiter, `wallet-${kind}:user:${user.id}`, rules[0], TOO_MANY);
  await enforceRateLimit(deps.rateLimiter, `wallet-${kind}:net:${network}`, rules[1], TOO_MANY);
}

export async function issueChallenge(
  deps: WalletDeps,
  user: SessionUser,
  site: SiteIdentity,
  network: string,
): Promise<WalletChallenge> {
  await limitAttempts(deps, 'challenge', user, network, [
    CHALLENGES_PER_MEMBER,
    CHALLENGES_PER_NETWORK,
  ]);
  const { row, challenge } = issueMessage(site, LINK_STATEMENT, deps.clock.now(), CHALLENGE_TTL_MS);
  await replaceNonce(deps.db, { ...row, user_id: user.id });
  return challenge;
}

/** The member's password again, counted per member and per network before the hash. */
async function checkPassword(
  deps: WalletDeps,
  user: SessionUser,
  password: string,
  network: string,
): Promise<void> {
  await limitAttempts(deps, 'link', user, network, [LINKS_PER_MEMBER, LINKS_PER_NETWORK]);
  const stored = await findUserPasswordHash(deps.db, user.id);
  if (stored !== undefined && !hasPassword(stored)) {
    throw new HttpError(
      403,
      'Add a password to your account first: changing the prize wallet asks for it',
      'PASSWORD_NOT_SET',
    );
  }
  if (!(await verifyPassword(stored, password))) {
    throw new HttpError(403, 'Wrong password', 'WRONG_PASSWORD');
  }
}

/**
 * The week whose prize is on its way to the member's wallet, if any, read in the link's
 * transaction. The rule is prize's (prize/repository.ts, openApproval); app.ts hands it in, as
 * prize builds on wallet and not the other way round.
 */
export type PendingPrize = (
  db: Transaction<Database>,
  userId: number,
) => Promise<{ week_id: string; wallet_address: string | null } | undefined>;

/**
 * Links (or changes) the member's wallet: their password again, then a signed message this site
 * issued to them. Refused while a week's prize approval names their wallet and is not paid, and
 * each change is recorded with its proof in wallet_changes
 * (docs/decisions/019-append-only-records-and-wallet-changes.md).
 */
export async function linkWallet(
  deps: WalletDeps,
  user: SessionUser,
  body: LinkWalletBody,
  site: SiteIdentity,
  network: string,
  pendingPrize: PendingPrize,
): Promise<WalletResponse> {
  await checkPassword(deps, user, body.password, network);
  const { bytes, nonce } = checkSignedMessage(body, site);
  const now = deps.clock.now();
  const issued = await findNonce(deps.db, nonce, user.id);
  if (!issued) {
    throw new HttpError(
      400,
      'This sign-in message was not issued to you or was replaced by a newer one; please try again',
      'UNKNOWN_NONCE',
    );
  }
  // The proof kept in user_wallets and wallet_changes, which verifies again.
  const wallet: UserWalletRow = {
    user_id: user.id,
    address: body.address,
    ...proveIssued(issued, LINK_STATEMENT, body, bytes, now),
    linked_at: now,
  };
  const taken = () =>
    new HttpError(409, 'This wallet is already linked to another account', 'WALLET_TAKEN');
  try {
    await deps.db.transaction().execute(async (trx) => {
      const before = await lockWallet(trx, user.id);
      const approval = before ? await pendingPrize(trx, user.id) : undefined;
      if (approval && approval.wallet_address !== body.address) {
        throw new HttpError(
          409,
          `Your prize for ${approval.week_id} is being paid to ${shortAddress(approval.wallet_address ?? before!.address)}; you can change your wallet once it is paid`,
          'PRIZE_PAYMENT_PENDING',
        );
      }
      if (!(await spendNonce(trx, 'wallet_nonces', nonce, now))) throw nonceUsed();
      const owner = await walletOwner(trx, body.address);
      if (owner !== undefined && owner !== user.id) throw taken();
      await saveWallet(trx, wallet);
      await recordWalletChange(trx, {
        user_id: user.id,
        old_address: before?.address ?? null,
        new_address: wallet.address,
        message: wallet.message,
        signature: wallet.signature,
        changed_at: now,
      });
    });
  } catch (error) {
    // Two members linking one address at once: the loser meets the unique address.
    if (isUniqueViolation(error)) throw taken();
    throw error;
  }
  return { wallet: { address: wallet.address, linkedAt: new Date(now).toISOString() } };
}

export async function memberWallet(deps: AppDeps, user: SessionUser): Promise<WalletResponse> {
  const row = await findWallet(deps.db, user.id);
  return {
    wallet: row ? { address: row.address, linkedAt: new Date(row.linked_at).toISOString() } : null,
  };
}
