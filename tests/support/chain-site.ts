import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { runAdminCli, type AdminCliResult } from './admin-cli.ts';
import { freePort, startNode, type NodeProcess } from './node-process.ts';
import { TestChain } from './test-chain.ts';

/**
 * A site of its own for a journey that records money (a paid week, a burn), which would take the
 * shared server's panels off the spec's starting texts: a node on a fresh data folder whose
 * SOLANA_RPC_URL is a LiteSVM test chain, optionally with a SITE_CONFIG, and the admin CLI on the
 * same database, chain and site.
 */
export interface ChainSite {
  node: NodeProcess;
  /** Where a browser opens the site: PUBLIC_ORIGIN. */
  origin: string;
  chain: TestChain;
  dataDir: string;
  admin(...args: string[]): Promise<AdminCliResult>;
  stop(): Promise<void>;
}

export async function startChainSite(
  site?: Record<string, unknown>,
  options: {
    /** Served as http://localhost:PORT: browsers refuse an IP address as a passkey's relying party. */
    passkeys?: boolean;
  } = {},
): Promise<ChainSite> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'grind-chain-e2e-'));
  const chain = new TestChain();
  await chain.start();
  const env: Record<string, string> = {
    DATA_DIR: dataDir,
    NODE_ENV: 'test',
    SOLANA_RPC_URL: chain.url,
  };
  if (site) {
    env.SITE_CONFIG = path.join(dataDir, 'site.json');
    fs.writeFileSync(env.SITE_CONFIG, JSON.stringify(site));
  }
  const port = await freePort();
  const origin = `http://${options.passkeys ? 'localhost' : '127.0.0.1'}:${port}`;
  const node = await startNode({
    env: { ...env, PORT: String(port), TRUST_PROXY: 'true', PUBLIC_ORIGIN: origin },
  });
  return {
    node,
    origin,
    chain,
    dataDir,
    admin: (...args) => runAdminCli(env, ...args),
    async stop() {
      await node.stop();
      await chain.stop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
