import { expect, test } from '@playwright/test';
import type { Address } from '@solana/kit';
import { startChainSite, type ChainSite } from '#test-support/chain-site.ts';
import {
  burnTokens,
  createTestMint,
  freshAddress,
  fundedSigner,
} from '#test-support/chain-transactions.ts';
import { addVirtualAuthenticator, signInViaApi, signUpViaApi, uniqueUsername } from './support';

// The giveaway's burn panel end to end, on a server of its own (a recorded burn would take the
// shared server's panel off the spec's starting figures, which landing.spec.ts checks): a real
// burn of the site's mint executed in LiteSVM behind the test RPC, recorded by an admin in the
// console while a visitor watches the panel. The CLI's burns:record is tested in
// src/server/prize/payments.test.ts.

const PASSWORD = 'grind123';
let site: ChainSite;
let siteMint: Address;

test.beforeAll(async () => {
  siteMint = await freshAddress();
  site = await startChainSite({ contractAddress: siteMint }, { passkeys: true });
});

test.afterAll(() => site?.stop());

test('an admin records a verified burn in the console; the panel of a visitor watching changes in place', async ({
  browser,
}, testInfo) => {
  test.setTimeout(120_000);
  const visitor = await browser.newPage({ baseURL: site.origin });
  const burnsRead = visitor.waitForResponse(
    (response) => new URL(response.url()).pathname === '/api/burns' && response.ok(),
  );
  await visitor.goto('/#giveaway');
  const panel = visitor.getByTestId('burn-panel');
  await expect(panel.locator('dd')).toHaveText(['1000M', '0', '0']);
  // The burns were read (after the first paint) and there are none: still the spec's figures.
  expect(await (await burnsRead).json()).toEqual({ burns: [], totalBurned: null, decimals: null });
  await expect(panel.locator('dd')).toHaveText(['1000M', '0', '0']);
  await expect(visitor.getByTestId('last-burn')).toHaveCount(0);

  // Burns on chain: one of another mint, one of the site's.
  const owner = await fundedSigner(site.chain);
  const other = await createTestMint(site.chain, owner, { decimals: 6 });
  const otherBurn = site.chain.send(await burnTokens(site.chain, other, 5n));
  const grind = await createTestMint(site.chain, owner, { mint: siteMint, decimals: 6 });
  const signature = site.chain.send(await burnTokens(site.chain, grind, 25_000_000_000_000n));

  const context = await browser.newContext({ baseURL: site.origin });
  const page = await context.newPage();
  const adminName = uniqueUsername('burner');
  await signUpViaApi(page, adminName, PASSWORD);
  expect((await site.admin('users:role', adminName, 'admin')).code).toBe(0);
  await signInViaApi(page, adminName, PASSWORD);
  await addVirtualAuthenticator(page);
  await page.goto('/admin/burns');
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Add a passkey' }).click();
  await expect(page.getByTestId('burns-total')).toHaveText('No verified burn yet.', {
    timeout: 30_000,
  });

  // A burn of another token is refused with the reason, and nothing changes.
  const field = page.getByLabel('Burn transaction signature');
  await field.fill(otherBurn);
  await page.getByRole('button', { name: 'Record the burn' }).click();
  await expect(page.getByRole('alert')).toContainText(siteMint);
  await expect(page.getByTestId('burns-total')).toHaveText('No verified burn yet.');

  await field.fill(signature);
  await page.getByRole('button', { name: 'Record the burn' }).click();
  await expect(page.getByTestId('burns-total')).toHaveText('Total burned: 25,000,000 tokens');
  await expect(page.getByTestId('burn-entry')).toHaveCount(1);
  await page.screenshot({ path: testInfo.outputPath('console-burns.png'), fullPage: true });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.screenshot({ path: testInfo.outputPath('console-burns-phone.png'), fullPage: true });
  await context.close();

  // The visitor's panel changed without a reload.
  await expect(panel.locator('dd')).toHaveText(['975M', '25,000,000', '25,000,000']);
  const last = visitor.getByTestId('last-burn');
  await expect(last).toContainText('Last burn on');
  const link = last.getByRole('link', { name: /Verified/ });
  await expect(link).toHaveAttribute('href', `https://solscan.io/tx/${signature}`);
  await expect(link).toHaveAttribute('title', /^Verified on chain, slot \d+$/);
  await visitor.close();
});
