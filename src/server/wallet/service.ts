import { MINUTE_MS } from '#shared/time.ts';
import { randomBytes } from 'node:crypto';
import { ed25519 } from '@noble/curves/ed25519.js';
import { base58 } from '@scure/base';
import type {
  LinkWalletBody,
  SignedWalletMessage,
  WalletChallenge,
  WalletResponse,
} from '#shared/api/wallet.ts';
import { parseSignInMessage, shortAddress, signInMessageText } from '#shared/siws.ts';
import { findUserPasswordHash } from '../accounts/repository.ts';
import type { AppDeps, SessionUser } from '../deps.ts';
import type { Transaction } from 'kysely';
import type { Database } from '../db/database.ts';
import { HttpError } from '../http-error.ts';
import { verifyPassword } from '../security/password.ts';
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
  type WalletNonceRow,
} from './repository.ts';

/** Long enough to open a wallet and read the message; short enough that a leaked one dies. */
export const CHALLENGE_TTL_MS = 10 * MINUTE_MS;
export const LINK_STATEMENT =
  'Link this wallet to my account, so the weekly prize can be paid to it. This is not a transaction and costs nothing.';
const VERSION = '1';
const CHAIN_ID = 'mainnet';

/** Where the message says it is from: the site's public origin, or the host the member used. */
export interface SiteIdentity {
  domain: string;
  uri: string;
}

/**
 * Challenges and link attempts (each one an argon2 hash when it names a password): a member
 * links a wallet a few times a year, so a handful per quarter hour is plenty, and a script
 * neither fills wallet_nonces nor guesses a session's password.
 */
const WALLET_WINDOW_MS = 15 * MINUTE_MS;
export const CHALLENGES_PER_MEMBER: RateRule = { limit: 10, windowMs: WALLET_WINDOW_MS };
export const CHALLENGES_PER_NETWORK: RateRule = { limit: 30, windowMs: WALLET_WINDOW_MS };
export const LINKS_PER_MEMBER: RateRule = { limit: 10, windowMs: WALLET_WINDOW_MS };
export const LINKS_PER_NETWORK: RateRule = { limit: 30, windowMs: WALLET_WINDOW_MS };
const TOO_MANY = 'Too many wallet attempts. Please try again later.';

/** Counts one attempt against the member and against the caller's network (clientNetwork). */
async function limitAttempts(
  deps: AppDeps,
  kind: 'challenge' | 'link',
  user: SessionUser,
  network: string,
  rules: [perMember: RateRule, perNetwork: RateRule],
): Promise<void> {
  await enforceRateLimit(deps.rateLimiter, `wallet-${kind}:user:${user.id}`, rules[0], TOO_MANY);
  await enforceRateLimit(deps.rateLimiter, `wallet-${kind}:net:${network}`, rules[1], TOO_MANY);
}

const bad = (message: string, code: string) => new HttpError(400, message, code);

function challengeFields(row: WalletNonceRow): WalletChallenge {
  return {
    domain: row.domain,
    statement: LINK_STATEMENT,
    uri: row.uri,
    version: VERSION,
    chainId: CHAIN_ID,
    nonce: row.nonce,
    issuedAt: new Date(row.issued_at).toISOString(),
    expirationTime: new Date(row.expires_at).toISOString(),
  };
}

export async function issueChallenge(
  deps: AppDeps,
  user: SessionUser,
  site: SiteIdentity,
  network: string,
): Promise<WalletChallenge> {
  await limitAttempts(deps, 'challenge', user, network, [
    CHALLENGES_PER_MEMBER,
    CHALLENGES_PER_NETWORK,
  ]);
  const now = deps.clock.now();
  const row: WalletNonceRow = {
    // 128 random bits; base58 keeps it alphanumeric as SIWS asks.
    nonce: base58.encode(randomBytes(16)),
    user_id: user.id,
    domain: site.domain,
    uri: site.uri,
    issued_at: now,
    expires_at: now + CHALLENGE_TTL_MS,
    used_at: null,
  };
  await replaceNonce(deps.db, row);
  return challengeFields(row);
}

function decodeBase64(value: string): Uint8Array {
  return new Uint8Array(Buffer.from(value, 'base64'));
}

/**
 * The checks on the signed message that need no database: it is a SIWS message for this
 * address, signed by this address's key, for this site. Returns the signed bytes and the nonce.
 */
export function checkSignedMessage(
  body: SignedWalletMessage,
  site: SiteIdentity,
): { bytes: Uint8Array; nonce: string } {
  const signature = decodeBase64(body.signature);
  if (signature.length !== 64) throw bad('signature must be 64 bytes (ed25519)', 'BAD_SIGNATURE');
  const publicKey = base58.decode(body.address);
  if (publicKey.length !== 32) throw bad('address must be a 32-byte public key', 'BAD_ADDRESS');
  const bytes = decodeBase64(body.signedMessage);
  let text: string;
  try {
    // ignoreBOM keeps a byte-order mark in the text (a decoder drops it by default), so what is
    // parsed and compared is every byte that was signed.
    text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch {
    text = '';
  }
  const parsed = parseSignInMessage(text);
  if (!parsed?.nonce) {
    throw bad('The signed message is not a Sign In With Solana message', 'NOT_SIWS');
  }
  if (parsed.address !== body.address) {
    throw bad('The signed message names another address than the one given', 'WRONG_ADDRESS');
  }
  let valid: boolean;
  try {
    // RFC 8032's strict rules, not ZIP-215's: with zip215 false @noble/curves also refuses a
    // small-order public key, which the universal signature (R = identity, S = 0) would "prove".
    valid = ed25519.verify(signature, bytes, publicKey, { zip215: false });
  } catch {
    // A public key that is not a curve point.
    valid = false;
  }
  if (!valid) {
    throw bad(
      'The signature does not match this message and address: the message may have been altered',
      'BAD_SIGNATURE',
    );
  }
  if (parsed.domain !== site.domain) {
    throw bad(
      `The signed message is for another site (${parsed.domain}); sign the one this site gives you`,
      'WRONG_DOMAIN',
    );
  }
  return { bytes, nonce: parsed.nonce };
}

/** The member's password again, counted per member and per network before the hash. */
async function checkPassword(
  deps: AppDeps,
  user: SessionUser,
  password: string,
  network: string,
): Promise<void> {
  await limitAttempts(deps, 'link', user, network, [LINKS_PER_MEMBER, LINKS_PER_NETWORK]);
  if (!(await verifyPassword(await findUserPasswordHash(deps.db, user.id), password))) {
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
  deps: AppDeps,
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
    throw bad(
      'This sign-in message was not issued to you or was replaced by a newer one; please try again',
      'UNKNOWN_NONCE',
    );
  }
  if (issued.used_at !== null) {
    throw new HttpError(
      409,
      'This sign-in message was already used; please try again',
      'NONCE_USED',
    );
  }
  if (issued.expires_at <= now) {
    throw bad('This sign-in message has expired; please try again', 'NONCE_EXPIRED');
  }
  // Byte for byte: the stored text then encodes back to exactly what was signed, so the proof
  // kept in user_wallets and wallet_changes verifies again.
  const expected = Buffer.from(
    signInMessageText({ ...challengeFields(issued), address: body.address }),
  );
  if (!expected.equals(bytes)) {
    throw bad('The signed message differs from the one this site issued', 'ALTERED_MESSAGE');
  }

  const wallet: UserWalletRow = {
    user_id: user.id,
    address: body.address,
    message: expected.toString('utf8'),
    signature: base58.encode(decodeBase64(body.signature)),
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
      if (!(await spendNonce(trx, nonce, now))) {
        throw new HttpError(
          409,
          'This sign-in message was already used; please try again',
          'NONCE_USED',
        );
      }
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
