import type { SignedWalletMessage, WalletChallenge } from '#shared/api/wallet.ts';
import type { WalletRegisterBody } from '#shared/api/wallet-sign-in.ts';
import { MINUTE_MS } from '#shared/time.ts';
import { findUserRole, insertUser, isLookAlikeOfMember } from '../accounts/repository.ts';
import { isUniqueViolation } from '../db/errors.ts';
import type { AppDeps, SessionUser } from '../deps.ts';
import { HttpError } from '../http-error.ts';
import { NO_PASSWORD } from '../security/password.ts';
import { enforceRateLimit, type RateRule } from '../security/rate-limit.ts';
import {
  findSignInNonce,
  insertSignInNonce,
  recordWalletChange,
  saveWallet,
  spendNonce,
  walletOwner,
} from '../wallet/repository.ts';
import {
  checkSignedMessage,
  issueMessage,
  nonceUsed,
  proveIssued,
  type SiteIdentity,
} from '../wallet/siws-checks.ts';
import { countAccountOpening } from './service.ts';

/**
 * Signing in with a wallet (docs/decisions/029-holders-at-home.md): a Sign In With Solana
 * message the server issued, checked field by field as a wallet link is (wallet/siws-checks.ts).
 * A wallet a member proved signs that member in; an unknown wallet may open an account, whose
 * first wallet it is. A message, never a transaction.
 */

/** Enough to open a wallet and approve; a leaked message is useless five minutes on. */
export const SIGN_IN_TTL_MS = 5 * MINUTE_MS;
export const SIGN_IN_STATEMENT =
  'Sign in with this wallet. This is a message, not a transaction: it moves nothing and costs nothing.';

const WINDOW_MS = 15 * MINUTE_MS;
/** Messages issued per network (an IPv6 /64 and its /48, enforceRateLimit): rows visitors write. */
export const SIGN_IN_CHALLENGES_PER_NETWORK: RateRule = { limit: 30, windowMs: WINDOW_MS };
/** Signed messages checked per network, counted before the signature is. */
const SIGN_INS_PER_NETWORK: RateRule = { limit: 30, windowMs: WINDOW_MS };
/**
 * Sign-ins per wallet, counted once the signature holds: only the key's holder spends them, so
 * a stranger cannot lock a wallet out by naming it.
 */
export const SIGN_INS_PER_WALLET: RateRule = { limit: 10, windowMs: WINDOW_MS };
const TOO_MANY = 'Too many wallet sign-ins. Please try again later.';

export async function issueSignInChallenge(
  deps: AppDeps,
  site: SiteIdentity,
  network: string,
): Promise<WalletChallenge> {
  await enforceRateLimit(
    deps.rateLimiter,
    `wallet-sign-in-challenge:net:${network}`,
    SIGN_IN_CHALLENGES_PER_NETWORK,
    TOO_MANY,
  );
  const { row, challenge } = issueMessage(
    site,
    SIGN_IN_STATEMENT,
    deps.clock.now(),
    SIGN_IN_TTL_MS,
  );
  await insertSignInNonce(deps.db, row);
  return challenge;
}

interface Proof {
  nonce: string;
  message: string;
  signature: string;
}

/** Every check of the signed message, counted per network and per wallet; nothing spent yet. */
async function proveMessage(
  deps: AppDeps,
  body: SignedWalletMessage,
  site: SiteIdentity,
  network: string,
): Promise<Proof> {
  await enforceRateLimit(
    deps.rateLimiter,
    `wallet-sign-in:net:${network}`,
    SIGN_INS_PER_NETWORK,
    TOO_MANY,
  );
  const { bytes, nonce } = checkSignedMessage(body, site);
  await enforceRateLimit(
    deps.rateLimiter,
    `wallet-sign-in:wallet:${body.address}`,
    SIGN_INS_PER_WALLET,
    TOO_MANY,
  );
  const issued = await findSignInNonce(deps.db, nonce);
  if (!issued) {
    throw new HttpError(
      400,
      'This sign-in message was not issued by this site; please try again',
      'UNKNOWN_NONCE',
    );
  }
  return { nonce, ...proveIssued(issued, SIGN_IN_STATEMENT, body, bytes, deps.clock.now()) };
}

/**
 * The member who proved the wallet. An unknown wallet is answered 404 `WALLET_UNKNOWN` and its
 * message is not spent: the same signature may open an account (`registerWithWallet`) while the
 * message lives.
 */
export async function signInWithWallet(
  deps: AppDeps,
  body: SignedWalletMessage,
  site: SiteIdentity,
  network: string,
): Promise<SessionUser> {
  const proof = await proveMessage(deps, body, site, network);
  const owner = await walletOwner(deps.db, body.address);
  const member = owner === undefined ? undefined : await findUserRole(deps.db, owner);
  if (!member) {
    throw new HttpError(
      404,
      'No account has proven this wallet yet: choose a username to open one with it',
      'WALLET_UNKNOWN',
    );
  }
  if (!(await spendNonce(deps.db, 'wallet_sign_in_nonces', proof.nonce, deps.clock.now())))
    throw nonceUsed();
  return { id: member.id, username: member.username };
}

/**
 * Opens an account whose first proven wallet is the signer's, with no password (one may be
 * added later): the account, the wallet, its record in wallet_changes and the spent message in
 * one transaction. Counted as an account opening from the caller's subscriber network, the
 * same allowance a password registration spends.
 */
export async function registerWithWallet(
  deps: AppDeps,
  body: WalletRegisterBody,
  site: SiteIdentity,
  networks: { client: string; subscriber: string },
): Promise<SessionUser> {
  const proof = await proveMessage(deps, body, site, networks.client);
  const opening = await countAccountOpening(deps, networks.subscriber);
  const walletTaken = async () => {
    await opening.giveBack();
    return new HttpError(
      409,
      'This wallet already signs in to an account: use "Sign in with wallet" instead',
      'WALLET_TAKEN',
    );
  };
  if (await isLookAlikeOfMember(deps.db, body.username)) throw await opening.taken();
  if ((await walletOwner(deps.db, body.address)) !== undefined) throw await walletTaken();
  const now = deps.clock.now();
  let user: SessionUser;
  try {
    user = await deps.db.transaction().execute(async (trx) => {
      // Spent with the account: a taken name rolls it back, and the member may pick another.
      if (!(await spendNonce(trx, 'wallet_sign_in_nonces', proof.nonce, now))) throw nonceUsed();
      const opened = await insertUser(trx, {
        username: body.username,
        passwordHash: NO_PASSWORD,
        now,
      });
      // Rolls back; the allowance is given back after, never inside the transaction (whose
      // connection SQLite's one writer holds).
      if (!opened) throw new NameTaken();
      await saveWallet(trx, {
        user_id: opened.id,
        address: body.address,
        message: proof.message,
        signature: proof.signature,
        linked_at: now,
      });
      await recordWalletChange(trx, {
        user_id: opened.id,
        old_address: null,
        new_address: body.address,
        message: proof.message,
        signature: proof.signature,
        changed_at: now,
      });
      return opened;
    });
  } catch (error) {
    if (error instanceof NameTaken) throw await opening.taken();
    // Two sign-ups with one wallet at once: the second meets the unique address.
    if (isUniqueViolation(error)) throw await walletTaken();
    throw error;
  }
  return user;
}

class NameTaken extends Error {}
