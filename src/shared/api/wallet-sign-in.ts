import type { z } from 'zod';
import { authResponseSchema, registerBodySchema, signingIn, usernameSchema } from './auth.ts';
import { defineEndpoint } from './endpoint.ts';
import { walletSignInPaths } from './paths.ts';
import {
  SIGNED_MESSAGE_REFUSALS,
  signedWalletMessageSchema,
  walletChallengeSchema,
} from './wallet.ts';

/** An unknown wallet's sign-up: the signed message and the username the member picks. */
export const walletRegisterBodySchema = signedWalletMessageSchema.extend({
  username: usernameSchema,
  /** In raid mode: the solved ALTCHA challenge, as a password sign-up sends it (decision 027). */
  altcha: registerBodySchema.shape.altcha,
});
export type WalletRegisterBody = z.infer<typeof walletRegisterBodySchema>;

export const walletSignInChallengeEndpoint = defineEndpoint(signingIn, {
  method: 'POST',
  path: walletSignInPaths.challenge,
  id: 'createWalletSignInChallenge',
  summary:
    'The fields of a Sign In With Solana message to sign in with, with a fresh nonce good once for 5 minutes',
  status: 201,
  response: walletChallengeSchema,
  errors: { 429: ['RATE_LIMITED'] },
});

export const walletLoginEndpoint = defineEndpoint(signingIn, {
  method: 'POST',
  path: walletSignInPaths.login,
  id: 'signInWithWallet',
  summary:
    'Sign in with a signed sign-in message: the member who proved that wallet (404 WALLET_UNKNOWN for a wallet no member proved; the message stays good for a sign-up)',
  body: signedWalletMessageSchema,
  response: authResponseSchema,
  errors: {
    400: SIGNED_MESSAGE_REFUSALS,
    404: ['WALLET_UNKNOWN'],
    409: ['NONCE_USED'],
    429: ['RATE_LIMITED'],
  },
});

export const walletRegisterEndpoint = defineEndpoint(signingIn, {
  method: 'POST',
  path: walletSignInPaths.register,
  id: 'registerWithWallet',
  summary:
    'Open an account with a signed sign-in message and a username; the wallet is its first proven wallet, and a password may be added later',
  body: walletRegisterBodySchema,
  status: 201,
  response: authResponseSchema,
  errors: {
    400: SIGNED_MESSAGE_REFUSALS,
    403: ['CHALLENGE_REQUIRED'],
    409: ['NONCE_USED', 'USERNAME_TAKEN', 'WALLET_TAKEN'],
    429: ['RATE_LIMITED'],
  },
});
