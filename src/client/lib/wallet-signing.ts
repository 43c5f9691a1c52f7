import {
  SolanaSignIn,
  SolanaSignMessage,
  type SolanaSignInFeature,
  type SolanaSignMessageFeature,
} from '@solana/wallet-standard-features';
import { StandardConnect, type StandardConnectFeature } from '@wallet-standard/features';
import type { Wallet } from '@wallet-standard/base';
import {
  signedWalletMessageSchema,
  type SignedWalletMessage,
  type WalletChallenge,
} from '#shared/api/wallet.ts';
import { signInMessageText } from '#shared/siws.ts';

/**
 * A wallet signing this site's Sign In With Solana message, for a prize wallet's link and for
 * signing in (docs/decisions/019 and 029): `solana:signIn` where the wallet has it, else
 * `solana:signMessage` of the same text. A message only: never a transaction.
 */

/** A Solana wallet, whether or not it can sign a message. */
export function isSolanaWallet(wallet: Wallet): boolean {
  return wallet.chains.some((chain) => chain.startsWith('solana:'));
}

/** A wallet that can prove an address: by Sign In With Solana, or by connecting and signing. */
export function canSignMessages(wallet: Wallet): boolean {
  const features = wallet.features;
  return SolanaSignIn in features || (StandardConnect in features && SolanaSignMessage in features);
}

function toBase64(bytes: Uint8Array): string {
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary);
}

/** Has the wallet sign the server's message; what it answers is what the server checks. */
export async function signChallenge(
  wallet: Wallet,
  challenge: WalletChallenge,
): Promise<SignedWalletMessage> {
  const features = wallet.features;
  if (SolanaSignIn in features) {
    const signIn = (features as SolanaSignInFeature)[SolanaSignIn].signIn;
    const [output] = await signIn(challenge);
    if (!output) throw new Error('The wallet returned no signature');
    return signedWalletMessageSchema.parse({
      address: output.account.address,
      signedMessage: toBase64(output.signedMessage),
      signature: toBase64(output.signature),
    });
  }
  if (!canSignMessages(wallet)) {
    throw new Error(`${wallet.name} cannot sign messages, so it cannot prove an address here`);
  }
  const { accounts } = await (features as StandardConnectFeature)[StandardConnect].connect();
  const account = accounts[0];
  if (!account) throw new Error('The wallet shared no account');
  const message = new TextEncoder().encode(
    signInMessageText({ ...challenge, address: account.address }),
  );
  const [output] = await (features as SolanaSignMessageFeature)[SolanaSignMessage].signMessage({
    account,
    message,
  });
  if (!output) throw new Error('The wallet returned no signature');
  return signedWalletMessageSchema.parse({
    address: account.address,
    signedMessage: toBase64(output.signedMessage),
    signature: toBase64(output.signature),
  });
}
