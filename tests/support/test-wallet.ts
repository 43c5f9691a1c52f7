import { ed25519 } from '@noble/curves/ed25519.js';
import { base58 } from '@scure/base';
import type { SignedWalletMessage, WalletChallenge } from '#shared/api/wallet.ts';
import { signInMessageText } from '#shared/siws.ts';

/** A Solana key pair made for one test: what a wallet holds, no blockchain anywhere. */
export class TestWallet {
  readonly secretKey: Uint8Array;
  readonly publicKey: Uint8Array;
  readonly address: string;

  constructor() {
    const { secretKey, publicKey } = ed25519.keygen();
    this.secretKey = secretKey;
    this.publicKey = publicKey;
    this.address = base58.encode(publicKey);
  }

  sign(message: Uint8Array): Uint8Array {
    return ed25519.sign(message, this.secretKey);
  }

  /** A wallet's Sign In With Solana answer (the link request adds the member's password). */
  signIn(
    challenge: WalletChallenge,
    edit: (text: string) => string = (t) => t,
  ): SignedWalletMessage {
    const text = edit(signInMessageText({ ...challenge, address: this.address }));
    const bytes = new TextEncoder().encode(text);
    return {
      address: this.address,
      signedMessage: Buffer.from(bytes).toString('base64'),
      signature: Buffer.from(this.sign(bytes)).toString('base64'),
    };
  }
}

/** A random transaction signature in Solana's form (base58 of 64 bytes); never sent anywhere. */
export function fakeTransactionSignature(): string {
  return base58.encode(crypto.getRandomValues(new Uint8Array(64)));
}
