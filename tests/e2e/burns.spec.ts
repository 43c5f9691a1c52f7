import { expect, test } from '@playwright/test';
import type { Address } from '@solana/kit';
import { startChainSite, type ChainSite } from '#test-support/chain-site.ts';
import {
  burnTokens,
  createTestMint,
  freshAddress,
  fundedSigner,
} from '#test-support/chain-transactions.ts';

// The giveaway's burn panel end to end, on a server of its own (a recorded burn would take the
// shared server's panel off the spec's starting figures, which landing.spec.ts checks): a real
// burn of the site's mint executed in LiteSVM behind the test RPC, recorded with the CLI.

test.describe.configure({ mode: 'serial' });

let site: ChainSite;
let siteMint: Address;

test.beforeAll(async () => {
  siteMint = await freshAddress();
  site = await startChainSite({ contractAddress: siteMint });
});

test.afterAll(() => site?.stop());

test('the burn panel shows the starting figures, then the verified burn recorded with the CLI', async ({
  page,
}) => {
  const burnsRead = page.waitForResponse(
    (response) => new URL(response.url()).pathname === '/api/burns' && response.ok(),
  );
  await page.goto(`${site.node.origin}/#giveaway`);
  const panel = page.getByTestId('burn-panel');
  await expect(panel.locator('dd')).toHaveText(['1000M', '0', '0']);
  // The burns were read (after the first paint) and there are none: still the spec's figures.
  expect(await (await burnsRead).json()).toEqual({ burns: [], totalBurned: null, decimals: null });
  await expect(panel.locator('dd')).toHaveText(['1000M', '0', '0']);
  await expect(page.getByTestId('last-burn')).toHaveCount(0);

  const owner = await fundedSigner(site.chain);
  const grind = await createTestMint(site.chain, owner, { mint: siteMint, decimals: 6 });
  const signature = site.chain.send(await burnTokens(site.chain, grind, 25_000_000_000_000n));
  const recorded = await site.admin('burns:record', signature);
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
