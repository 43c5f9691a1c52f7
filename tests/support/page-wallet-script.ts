import path from 'node:path';
import { buildSync } from 'esbuild';
import type { TestWallet } from './test-wallet.ts';

/** page-wallet.ts as one init script, its settings in front: `page.addInitScript({ content })`. */
export function pageWalletScript(wallet: TestWallet, name: string): string {
  const bundle = buildSync({
    entryPoints: [path.join(import.meta.dirname, 'page-wallet.ts')],
    bundle: true,
    format: 'iife',
    target: 'es2022',
    write: false,
  });
  const config = { name, address: wallet.address, publicKey: [...wallet.publicKey] };
  return `window.__testWalletConfig = ${JSON.stringify(config)};\n${bundle.outputFiles[0]!.text}`;
}
