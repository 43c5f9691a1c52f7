import { z } from 'zod';
import { PASSWORD_MAX } from './auth.ts';
import { defineEndpoint, endpointGroup } from './endpoint.ts';
import type { ErrorCode } from './error-codes.ts';
import { walletPaths } from './paths.ts';

/**
 * What a signed Sign In With Solana message may be refused for, before anything is spent: a
 * wallet's link here, a sign-in or sign-up with it (wallet-sign-in.ts).
 */
export const SIGNED_MESSAGE_REFUSALS = [
  'BAD_SIGNATURE',
  'BAD_ADDRESS',
  'NOT_SIWS',
  'WRONG_ADDRESS',
  'WRONG_DOMAIN',
  'WRONG_URI',
  'WRONG_CHAIN',
  'UNKNOWN_NONCE',
  'NONCE_EXPIRED',
  'NONCE_NOT_YET_VALID',
  'ALTERED_MESSAGE',
] as const satisfies readonly ErrorCode[];

/** The wallet's endpoints: a member's, and the 401 a visitor gets. */
const linking = endpointGroup({
  tag: 'wallet',
  access: 'member',
  signIn: 'Please log in to link a wallet',
});

/** Base58 of 32 bytes: how Solana writes a public key. */
export const solanaAddressSchema = z
  .string({ error: 'address is required' })
  .regex(/^[1-9A-HJ-NP-Za-km-z]{32,44}$/, 'address must be a Solana address (base58)');

export const walletChallengeSchema = z.object({
  domain: z.string(),
  statement: z.string(),
  uri: z.string(),
  version: z.string(),
  chainId: z.string(),
  nonce: z.string(),
  issuedAt: z.string(),
  expirationTime: z.string(),
});
export type WalletChallenge = z.infer<typeof walletChallengeSchema>;

const base64Schema = (name: string, max: number) =>
  z
    .string({ error: `${name} is required` })
    .max(max, `${name} is too long`)
    .regex(/^[A-Za-z0-9+/]*={0,2}$/, `${name} must be base64`);

/** What the wallet answers: the address, the bytes it signed and the signature. */
export const signedWalletMessageSchema = z.object({
  address: solanaAddressSchema,
  /** The exact bytes the wallet signed (a SIWS message), base64. */
  signedMessage: base64Schema('signedMessage', 4096),
  /** The 64-byte ed25519 signature, base64. */
  signature: base64Schema('signature', 128),
});
export type SignedWalletMessage = z.infer<typeof signedWalletMessageSchema>;

export const linkWalletBodySchema = signedWalletMessageSchema.extend({
  /** The member's password again: a session alone does not move the prize to another wallet. */
  password: z
    .string({ error: 'Password is required' })
    .min(1, 'Password is required')
    .max(PASSWORD_MAX, `Password must be at most ${PASSWORD_MAX} characters`),
});
export type LinkWalletBody = z.infer<typeof linkWalletBodySchema>;

export const linkedWalletSchema = z.object({
  address: solanaAddressSchema,
  linkedAt: z.iso.datetime(),
});

export const walletResponseSchema = z.object({
  /** Null until the member links one; with it, the member can be paid the weekly prize. */
  wallet: linkedWalletSchema.nullable(),
});
export type WalletResponse = z.infer<typeof walletResponseSchema>;

export const walletEndpoint = defineEndpoint(linking, {
  method: 'GET',
  path: walletPaths.wallet,
  id: 'getWallet',
  summary: "The signed-in member's linked Solana wallet (null until linked)",
  response: walletResponseSchema,
});

export const walletChallengeEndpoint = defineEndpoint(linking, {
  method: 'POST',
  path: walletPaths.challenge,
  id: 'createWalletChallenge',
  summary: 'The fields of a Sign In With Solana message to sign, with a fresh single-use nonce',
  status: 201,
  response: walletChallengeSchema,
  refuses: { suspended: true },
  errors: { 429: ['RATE_LIMITED'] },
});

export const linkWalletEndpoint = defineEndpoint(linking, {
  method: 'POST',
  path: walletPaths.link,
  id: 'linkWallet',
  summary: "Link (or replace) the member's wallet with a signed challenge and their password",
  body: linkWalletBodySchema,
  response: walletResponseSchema,
  refuses: { suspended: true },
  errors: {
    400: SIGNED_MESSAGE_REFUSALS,
    403: ['WRONG_PASSWORD', 'PASSWORD_NOT_SET'],
    409: ['NONCE_USED', 'WALLET_TAKEN', 'PRIZE_PAYMENT_PENDING'],
    429: ['RATE_LIMITED'],
  },
});
