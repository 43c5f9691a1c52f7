import { randomBytes } from 'node:crypto';
import { ed25519 } from '@noble/curves/ed25519.js';
import { base58 } from '@scure/base';
import type { LinkWalletBody, WalletChallenge, WalletResponse } from '#shared/api/wallet.ts';
import { parseSignInMessage, signInMessageText } from '#shared/siws.ts';
import type { AppDeps, SessionUser } from '../deps.ts';
import { HttpError } from '../http-error.ts';
import { isUniqueViolation } from '../shop/ledger.ts';
import {
  findNonce,
  findWallet,
  replaceNonce,
  saveWallet,
  spendNonce,
  walletOwner,
  type UserWalletRow,
  type WalletNonceRow,
} from './repository.ts';

/** Long enough to open a wallet and read the message; short enough that a leaked one dies. */
export const CHALLENGE_TTL_MS = 10 * 60 * 1000;
export const LINK_STATEMENT =
  'Link this wallet to my account, so the weekly prize can be paid to it. This is not a transaction and costs nothing.';
const VERSION = '1';
const CHAIN_ID = 'mainnet';

/** Where the message says it is from: the site's public origin, or the host the member used. */
export interface SiteIdentity {
  domain: string;
  uri: string;
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
): Promise<WalletChallenge> {
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
 * address, signed by this address's key, for this site. Returns the message's text and nonce.
 */
export function checkSignedMessage(
  body: LinkWalletBody,
  site: SiteIdentity,
): { text: string; nonce: string } {
  const signature = decodeBase64(body.signature);
  if (signature.length !== 64) throw bad('signature must be 64 bytes (ed25519)', 'BAD_SIGNATURE');
  const publicKey = base58.decode(body.address);
  if (publicKey.length !== 32) throw bad('address must be a 32-byte public key', 'BAD_ADDRESS');
  const bytes = decodeBase64(body.signedMessage);
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
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
    valid = ed25519.verify(signature, bytes, publicKey);
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
  return { text, nonce: parsed.nonce };
}

export async function linkWallet(
  deps: AppDeps,
  user: SessionUser,
  body: LinkWalletBody,
  site: SiteIdentity,
): Promise<WalletResponse> {
  const { text, nonce } = checkSignedMessage(body, site);
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
  if (text !== signInMessageText({ ...challengeFields(issued), address: body.address })) {
    throw bad('The signed message differs from the one this site issued', 'ALTERED_MESSAGE');
  }

  const wallet: UserWalletRow = {
    user_id: user.id,
    address: body.address,
    message: text,
    signature: base58.encode(decodeBase64(body.signature)),
    linked_at: now,
  };
  const taken = () =>
    new HttpError(409, 'This wallet is already linked to another account', 'WALLET_TAKEN');
  try {
    await deps.db.transaction().execute(async (trx) => {
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
