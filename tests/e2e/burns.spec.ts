import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import type { Address } from '@solana/kit';
import { runAdminCli } from '#test-support/admin-cli.ts';
import {
  burnTokens,
  createTestMint,
  freshAddress,
  fundedSigner,
} from '#test-support/chain-transactions.ts';
import { freePort, startNode, type NodeProcess } from '#test-support/node-process.ts';
import { TestChain } from '#test-support/test-chain.ts';

// The giveaway's burn panel end to end, on a server of its own (a recorded burn would take the
// shared server's panel off the spec's starting figures, which landing.spec.ts checks): a real
// burn of the site's mint executed in LiteSVM behind the test RPC, recorded with the CLI.

test.describe.configure({ mode: 'serial' });

let node: NodeProcess;
let chain: TestChain;
let dataDir: string;
let siteFile: string;
let siteMint: Address;

test.beforeAll(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'grind-burns-e2e-'));
  siteMint = await freshAddress();
  siteFile = path.join(dataDir, 'site.json');
  fs.writeFileSync(siteFile, JSON.stringify({ contractAddress: siteMint }));
  const port = await freePort();
  chain = new TestChain();
  await chain.start();
  node = await startNode({
    env: {
      SOLANA_RPC_URL: chain.url,
      SITE_CONFIG: siteFile,
      PORT: String(port),
      DATA_DIR: dataDir,
      NODE_ENV: 'test',
      TRUST_PROXY: 'true',
      PUBLIC_ORIGIN: `http://127.0.0.1:${port}`,
    },
  });
});

test.afterAll(async () => {
  await node?.stop();
  await chain?.stop();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

test('the burn panel shows the starting figures, then the verified burn recorded with the CLI', async ({
  page,
}) => {
  const burnsRead = page.waitForResponse(
    (response) => new URL(response.url()).pathname === '/api/burns' && response.ok(),
  );
  await page.goto(`${node.origin}/#giveaway`);
  const panel = page.getByTestId('burn-panel');
  await expect(panel.locator('dd')).toHaveText(['1000M', '0', '0']);
  // The burns were read (after the first paint) and there are none: still the spec's figures.
  expect(await (await burnsRead).json()).toEqual({ burns: [], totalBurned: null, decimals: null });
  await expect(panel.locator('dd')).toHaveText(['1000M', '0', '0']);
  await expect(page.getByTestId('last-burn')).toHaveCount(0);

  const owner = await fundedSigner(chain);
  const grind = await createTestMint(chain, owner, { mint: siteMint, decimals: 6 });
  const signature = chain.send(await burnTokens(chain, grind, 25_000_000_000_000n));
  const recorded = await runAdminCli(
    {
      DATA_DIR: dataDir,
      NODE_ENV: 'test',
      SOLANA_RPC_URL: chain.url,
      SITE_CONFIG: siteFile,
    },
    'burns:record',
    signature,
  );
  expect(recorded.stderr).toBe('');
  expect(recorded.code).toBe(0);

  await page.reload();
  await page.locator('section#giveaway').scrollIntoViewIfNeeded();
  await expect(panel.locator('dd')).toHaveText(['975M', '25,000,000', '25,000,000'], {
    timeout: 30_000,
  });
  const last = page.getByTestId('last-burn');
  await expect(last).toContainText('Last burn on');
  const link = last.getByRole('link', { name: /Verified/ });
  await expect(link).toHaveAttribute('href', `https://solscan.io/tx/${signature}`);
  await expect(link).toHaveAttribute('title', /^Verified on chain, slot \d+$/);
});
