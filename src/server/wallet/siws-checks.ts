import { randomBytes } from 'node:crypto';
import { ed25519 } from '@noble/curves/ed25519.js';
import { base58 } from '@scure/base';
import type { FastifyRequest } from 'fastify';
import type { SignedWalletMessage, WalletChallenge } from '#shared/api/wallet.ts';
import { parseSignInMessage, signInMessageText } from '#shared/siws.ts';
import { MINUTE_MS } from '#shared/time.ts';
import type { ErrorCode } from '#shared/api/error-codes.ts';
import type { IssuedMessageColumns } from '../db/database.ts';
import { HttpError } from '../http-error.ts';

/**
 * Sign In With Solana as this site checks it, once for both uses: linking a prize wallet
 * (service.ts) and signing in with a wallet (auth/wallet-sign-in.ts). The server issues every
 * field (domain, URI, version, chain id, nonce, issued-at, expiry) and keeps the nonce's row;
 * what comes back must be a message for this site, signed by the address's key, and then the
 * very bytes the server would issue for that row (docs/decisions/019 and 029).
 */

const SIWS_VERSION = '1';
const SIWS_CHAIN_ID = 'mainnet';

/**
 * How far ahead of this node's clock a message's issued-at may be: the node that issued it may
 * run up to this much ahead (several nodes, one database). Expiry is not stretched: a message
 * is refused from its expiration time on, by every node's clock.
 */
export const CLOCK_SKEW_MS = MINUTE_MS;

/** Where the message says it is from: the site's public origin, or the host the member used. */
export interface SiteIdentity {
  domain: string;
  uri: string;
}

/**
 * PUBLIC_ORIGIN when the operator set it, else the host this request came to: only without
 * TRUST_PROXY (config.ts requires PUBLIC_ORIGIN with it), so never a forwarded host.
 */
export function siteIdentity(request: FastifyRequest): SiteIdentity {
  const origin = request.server.deps.config.publicOrigin;
  if (origin) return { domain: new URL(origin).host, uri: origin };
  return { domain: request.host, uri: `${request.protocol}://${request.host}` };
}

/**
 * A new message for this site saying `statement`, open for `ttlMs` from `now`: the row to keep
 * (every field is the server's; the nonce is 128 random bits, base58 keeping it alphanumeric as
 * SIWS asks) and the fields the wallet is asked to sign.
 */
export function issueMessage(
  site: SiteIdentity,
  statement: string,
  now: number,
  ttlMs: number,
): { row: IssuedMessageColumns; challenge: WalletChallenge } {
  const row: IssuedMessageColumns = {
    nonce: base58.encode(randomBytes(16)),
    domain: site.domain,
    uri: site.uri,
    issued_at: now,
    expires_at: now + ttlMs,
    used_at: null,
  };
  return { row, challenge: challengeFields(row, statement) };
}

/** The fields of an issued message, as the wallet is asked to sign them. */
function challengeFields(row: IssuedMessageColumns, statement: string): WalletChallenge {
  return {
    domain: row.domain,
    statement,
    uri: row.uri,
    version: SIWS_VERSION,
    chainId: SIWS_CHAIN_ID,
    nonce: row.nonce,
    issuedAt: new Date(row.issued_at).toISOString(),
    expirationTime: new Date(row.expires_at).toISOString(),
  };
}

const bad = (message: string, code: ErrorCode) => new HttpError(400, message, code);

function decodeBase64(value: string): Uint8Array {
  return new Uint8Array(Buffer.from(value, 'base64'));
}

/**
 * The checks on the signed message that need no database: it is a SIWS message for this
 * address, signed by this address's key, for this site (domain and URI) on this chain. Returns
 * the signed bytes and the nonce.
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
  if (parsed.uri !== site.uri) {
    throw bad(
      `The signed message names another address (${parsed.uri ?? 'none'}) than this site's (${site.uri})`,
      'WRONG_URI',
    );
  }
  if (parsed.chainId !== SIWS_CHAIN_ID) {
    throw bad(
      `The signed message is for another chain (${parsed.chainId ?? 'none'}); this site signs in on Solana ${SIWS_CHAIN_ID}`,
      'WRONG_CHAIN',
    );
  }
  return { bytes, nonce: parsed.nonce };
}

/** A message's second use: refused when its row says so, and when spending it finds it spent. */
export const nonceUsed = () =>
  new HttpError(409, 'This sign-in message was already used; please try again', 'NONCE_USED');

/**
 * The checks of a signed message against the row its nonce names (`checkSignedMessage` came
 * first): the row allows a use now, and the signed bytes are exactly its text. Returns the proof
 * to keep: that text and the signature.
 */
export function proveIssued(
  issued: IssuedMessageColumns,
  statement: string,
  body: SignedWalletMessage,
  bytes: Uint8Array,
  now: number,
): { message: string; signature: string } {
  checkIssued(issued, now);
  const message = expectIssuedText(issued, statement, body.address, bytes);
  return { message, signature: signatureText(body) };
}

/** The nonce's row allows a use now: not spent, issued (within the skew), not expired. */
function checkIssued(issued: IssuedMessageColumns, now: number): void {
  if (issued.used_at !== null) throw nonceUsed();
  if (issued.issued_at > now + CLOCK_SKEW_MS) {
    throw bad(
      'This sign-in message is dated in the future by more than this site allows; please try again',
      'NONCE_NOT_YET_VALID',
    );
  }
  if (issued.expires_at <= now) {
    throw bad('This sign-in message has expired; please try again', 'NONCE_EXPIRED');
  }
}

/**
 * The signed bytes are exactly the text the server issues for `issued` and this address, byte
 * for byte: the stored text then encodes back to what was signed, so a kept proof verifies
 * again. Returns it.
 */
function expectIssuedText(
  issued: IssuedMessageColumns,
  statement: string,
  address: string,
  bytes: Uint8Array,
): string {
  const expected = Buffer.from(
    signInMessageText({ ...challengeFields(issued, statement), address }),
  );
  if (!expected.equals(bytes)) {
    throw bad('The signed message differs from the one this site issued', 'ALTERED_MESSAGE');
  }
  return expected.toString('utf8');
}

/** A signature as kept beside its message: base58, as Solana writes signatures. */
function signatureText(body: SignedWalletMessage): string {
  return base58.encode(decodeBase64(body.signature));
}
