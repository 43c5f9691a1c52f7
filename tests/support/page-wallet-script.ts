import path from 'node:path';
import type { Page } from '@playwright/test';
import { getTransactionDecoder, type Address } from '@solana/kit';
import { sendThroughRpc } from './chain-transactions.ts';
import { bundledInitScript } from './init-script.ts';
import type { TestWallet } from './test-wallet.ts';

/** What else a page wallet offers (page-wallet.ts). */
export interface PageWalletOptions {
  /** The chains it lists: `solana:mainnet` unless given. */
  chains?: `${string}:${string}`[];
  /** More wallets holding the same key, on other chains. */
  others?: { name: string; chains: `${string}:${string}`[] }[];
  /** Offers `solana:signIn` (true unless told): without it a site signs in by `signMessage`. */
  signIn?: boolean;
}

/** page-wallet.ts as one init script, its settings in front: `page.addInitScript({ content })`. */
function pageWalletScript(
  wallet: TestWallet,
  name: string,
  sends: boolean,
  options: PageWalletOptions,
): string {
  const config = {
    name,
    address: wallet.address,
    publicKey: [...wallet.publicKey],
    sends,
    chains: options.chains ?? ['solana:mainnet'],
    others: options.others ?? [],
    signIn: options.signIn ?? true,
  };
  const script = bundledInitScript(path.join(import.meta.dirname, 'page-wallet.ts'));
  return `window.__testWalletConfig = ${JSON.stringify(config)};\n${script}`;
}

/** Signs the transaction's message with the wallet's key and sends it to a JSON-RPC server. */
async function signAndSend(wallet: TestWallet, rpcUrl: string, wire: Uint8Array) {
  const tx = getTransactionDecoder().decode(wire);
  const signed = {
    ...tx,
    signatures: {
      ...tx.signatures,
      [wallet.address as Address]: wallet.sign(new Uint8Array(tx.messageBytes)),
    },
  } as typeof tx;
  return sendThroughRpc(rpcUrl, signed);
}

/**
 * Registers `wallet` in the page through the Wallet Standard, as an extension does. Its key
 * stays in the test process. With `sendTo` (a test RPC's URL) the wallet also signs and sends
 * transactions there (`solana:signAndSendTransaction`), answering the signature as a wallet
 * does.
 */
export async function installPageWallet(
  page: Page,
  wallet: TestWallet,
  name: string,
  sendTo?: string,
  options: PageWalletOptions = {},
): Promise<void> {
  await page.exposeFunction('testWalletSign', (messageBase64: string) =>
    Buffer.from(wallet.sign(Buffer.from(messageBase64, 'base64'))).toString('base64'),
  );
  if (sendTo !== undefined) {
    await page.exposeFunction('testWalletSignAndSend', (wireBase64: string) =>
      signAndSend(wallet, sendTo, Buffer.from(wireBase64, 'base64')),
    );
  }
  await page.addInitScript({
    content: pageWalletScript(wallet, name, sendTo !== undefined, options),
  });
}
