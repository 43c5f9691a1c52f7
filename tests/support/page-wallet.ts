/**
 * A Solana wallet for the browser under test, registered through the Wallet Standard exactly as
 * an extension registers itself. Bundled into a page init script by `pageWalletScript`; its key
 * stays in the test process, which signs through `window.testWalletSign` (page.exposeFunction).
 * Nothing here reaches a blockchain.
 */
import type { SolanaSignInInput } from '@solana/wallet-standard-features';
import type { Wallet, WalletAccount } from '@wallet-standard/base';
import { registerWallet } from '@wallet-standard/wallet';
import { base58 } from '@scure/base';
import { signInMessageText } from '../../src/shared/siws.ts';

interface PageWalletConfig {
  name: string;
  address: string;
  publicKey: number[];
  /** Signs and sends transactions through the test process (`installPageWallet`'s `sendTo`). */
  sends: boolean;
  /** The Wallet Standard chains it offers (`solana:mainnet`, `solana:localnet`, ...). */
  chains: `${string}:${string}`[];
  /** More wallets with the same key, each its name and chains (a wallet on another network). */
  others: { name: string; chains: `${string}:${string}`[] }[];
  /** Whether it offers `solana:signIn`, or only `solana:signMessage` (as some wallets do). */
  signIn: boolean;
}

const page = window as unknown as {
  __testWalletConfig: PageWalletConfig;
  testWalletSign(messageBase64: string): Promise<string>;
  /** Answers the transaction's signature (base58) once sent. */
  testWalletSignAndSend(wireBase64: string): Promise<string>;
};
const config = page.__testWalletConfig;

const toBase64 = (bytes: Uint8Array) => btoa(String.fromCharCode(...bytes));
const fromBase64 = (text: string) => Uint8Array.from(atob(text), (c) => c.charCodeAt(0));
const sign = async (message: Uint8Array) =>
  fromBase64(await page.testWalletSign(toBase64(message)));

const account = (chains: `${string}:${string}`[]): WalletAccount => ({
  address: config.address,
  publicKey: new Uint8Array(config.publicKey),
  chains,
  features: [
    ...(config.signIn ? ['solana:signIn' as const] : []),
    'solana:signMessage',
    ...(config.sends ? ['solana:signAndSendTransaction' as const] : []),
  ],
});

function text(input: SolanaSignInInput): string {
  return signInMessageText({
    domain: input.domain ?? location.host,
    address: config.address,
    statement: input.statement ?? '',
    uri: input.uri ?? '',
    version: input.version ?? '1',
    chainId: input.chainId ?? 'mainnet',
    nonce: input.nonce ?? '',
    issuedAt: input.issuedAt ?? '',
    expirationTime: input.expirationTime ?? '',
  });
}

const wallet = (name: string, chains: `${string}:${string}`[]): Wallet => {
  const held = account(chains);
  return {
    version: '1.0.0',
    name,
    icon: 'data:image/svg+xml;base64,PHN2ZyB4bWxucz0iaHR0cDovL3d3dy53My5vcmcvMjAwMC9zdmciIHZpZXdCb3g9IjAgMCAxIDEiPjxyZWN0IHdpZHRoPSIxIiBoZWlnaHQ9IjEiIGZpbGw9IiNmNTllMGIiLz48L3N2Zz4=',
    chains,
    accounts: [held],
    features: {
      'standard:connect': { version: '1.0.0', connect: async () => ({ accounts: [held] }) },
      'standard:events': { version: '1.0.0', on: () => () => {} },
      ...(config.signIn && {
        'solana:signIn': {
          version: '1.0.0',
          signIn: (...inputs: SolanaSignInInput[]) =>
            Promise.all(
              inputs.map(async (input) => {
                const signedMessage = new TextEncoder().encode(text(input));
                return {
                  account: held,
                  signedMessage,
                  signature: await sign(signedMessage),
                  signatureType: 'ed25519' as const,
                };
              }),
            ),
        },
      }),
      'solana:signMessage': {
        version: '1.0.0',
        signMessage: (...inputs: Array<{ message: Uint8Array }>) =>
          Promise.all(
            inputs.map(async ({ message }) => ({
              signedMessage: message,
              signature: await sign(message),
            })),
          ),
      },
      ...(config.sends && {
        'solana:signAndSendTransaction': {
          version: '1.0.0',
          supportedTransactionVersions: ['legacy', 0],
          signAndSendTransaction: (...inputs: Array<{ transaction: Uint8Array }>) =>
            Promise.all(
              inputs.map(async ({ transaction }) => ({
                signature: base58.decode(await page.testWalletSignAndSend(toBase64(transaction))),
              })),
            ),
        },
      }),
    },
  };
};

registerWallet(wallet(config.name, config.chains));
for (const other of config.others) registerWallet(wallet(other.name, other.chains));
