import path from 'node:path';
import { expect, test } from '@playwright/test';
import { isoWeekId, WEEK_MS } from '#shared/time.ts';
import { shortAddress } from '#shared/siws.ts';
import { LAMPORTS_PER_SOL } from '#test-support/chain-transactions.ts';
import { startChainSite, type ChainSite } from '#test-support/chain-site.ts';
import { storeLastWeekRun } from '#test-support/honest-run.ts';
import { installPageWallet } from '#test-support/page-wallet-script.ts';
import { TestWallet } from '#test-support/test-wallet.ts';
import { addVirtualAuthenticator, signInViaApi, signUpViaApi, uniqueUsername } from './support';

// The weekly prize paid from the console (issue 33), on a site of its own with a LiteSVM test
// chain behind SOLANA_RPC_URL. The admin's wallet is a test wallet registered through the Wallet
// Standard whose solana:signAndSendTransaction signs with its key and sends to the test RPC: the
// transfer the console builds really executes, and the week is paid only once it is finalized.

const PASSWORD = 'grind123';
const WALLET_NAME = 'Grind Test Wallet';

let site: ChainSite;
test.beforeAll(async () => {
  site = await startChainSite(undefined, { passkeys: true });
});
test.afterAll(() => site?.stop());

test('an admin pays the approved week from the console; it is paid only once finalized, and Recent Winners shows it verified', async ({
  browser,
}, testInfo) => {
  // A whole journey (member, admin with a passkey, a payment, a visitor) on a site of its own.
  test.setTimeout(150_000);
  const context = await browser.newContext({ baseURL: site.origin });
  const page = await context.newPage();

  // Last week's winner, with their proven wallet, approved from the shell.
  const winnerName = uniqueUsername('paid');
  const winnerWallet = new TestWallet();
  await signUpViaApi(page, winnerName);
  const runId = await storeLastWeekRun(
    path.join(site.dataDir, 'app.db'),
    winnerName,
    400,
    (db, userId, at) =>
      db
        .insertInto('user_wallets')
        .values({
          user_id: userId,
          address: winnerWallet.address,
          message: 'e2e',
          signature: 'e2e',
          linked_at: at,
        })
        .execute(),
  );
  const week = isoWeekId(Date.now() - WEEK_MS);
  await context.clearCookies();

  const adminName = uniqueUsername('payer');
  await signUpViaApi(page, adminName, PASSWORD);
  expect((await site.admin('users:role', adminName, 'admin')).code).toBe(0);
  await signInViaApi(page, adminName, PASSWORD);
  expect((await site.admin('prize:review')).code).toBe(0);
  const approved = await site.admin('prize:approve', '--week', week, `--run=${runId}`);
  expect(approved.code, approved.stdout + approved.stderr).toBe(0);

  // The admin's wallet holds SOL on the test chain and sends through its RPC.
  const treasury = new TestWallet();
  site.chain.airdrop(treasury.address, 5n * LAMPORTS_PER_SOL);
  await installPageWallet(page, treasury, WALLET_NAME, site.chain.url);
  await addVirtualAuthenticator(page);
  const scripts: string[] = [];
  page.on('request', (request) => {
    if (request.resourceType() === 'script') scripts.push(request.url());
  });
  const paymentCodeLoaded = () => scripts.some((url) => url.includes('prize-payment'));
  await page.goto('/admin');
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Add a passkey' }).click();
  await expect(page.getByRole('navigation', { name: 'Console' })).toBeVisible();
  // The wallet code loads with the prize week page, not with the console.
  expect(paymentCodeLoaded()).toBe(false);
  await page.getByRole('link', { name: 'Prize week' }).click();

  const state = page.getByTestId('payment-state');
  await expect(state).toHaveText(
    `To pay: 1 SOL to ${shortAddress(winnerWallet.address)}, with the memo and a reference key the server checks the transfer by.`,
    { timeout: 30_000 },
  );
  expect(paymentCodeLoaded()).toBe(true);
  await page.getByRole('button', { name: `Connect ${WALLET_NAME}` }).click();

  // A visitor watches the giveaway while the admin pays (the Sunday livestream).
  const visitor = await browser.newPage({ baseURL: site.origin });
  await visitor.goto('/');
  const giveaway = visitor.locator('section#giveaway');
  await giveaway.scrollIntoViewIfNeeded();
  await expect(giveaway.getByTestId('no-winners')).toBeVisible({ timeout: 30_000 });

  // The transfer lands below finalized: the console says it waits, and nothing is paid yet.
  site.chain.finalizeNew = false;
  await page
    .getByRole('button', { name: `Pay 1 SOL from ${shortAddress(treasury.address)}` })
    .click();
  await expect(state).toContainText(/Pending: transaction \w+ is confirmed, not finalized yet/);
  expect(site.chain.balance(winnerWallet.address)).toBe(LAMPORTS_PER_SOL);
  const signature = /transaction (\w+) is confirmed/.exec((await state.textContent())!)![1]!;
  const winners = async () =>
    (await (await page.request.get('/api/giveaway-winners')).json()) as Array<{ week: string }>;
  expect((await winners()).some((w) => w.week === week)).toBe(false);
  await page.screenshot({ path: testInfo.outputPath('payout-pending.png'), fullPage: true });

  // Finalized: the console's next check records the week paid, with the slot it verified.
  site.chain.finalizeNew = true;
  site.chain.finalize(signature);
  await expect(state).toContainText(
    `Paid 1 SOL to ${shortAddress(winnerWallet.address)}, verified on chain at finalized (slot`,
    { timeout: 15_000 },
  );
  await expect(state.getByRole('link', { name: 'View the transaction' })).toHaveAttribute(
    'href',
    `https://solscan.io/tx/${signature}`,
  );
  await expect(page.getByText(`Approved: ${winnerName}`)).toContainText('Paid.');
  await page.screenshot({ path: testInfo.outputPath('payout-paid.png'), fullPage: true });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.screenshot({ path: testInfo.outputPath('payout-paid-phone.png'), fullPage: true });

  // The visitor sees the winner arrive, verified on chain, without a reload.
  const winner = giveaway.getByTestId('winners').getByRole('listitem');
  await expect(winner).toContainText(winnerName, { timeout: 10_000 });
  await expect(winner.getByTestId('winner-verified')).toContainText(
    /^Verified on chain · slot \d+$/,
  );
  await visitor.close();
  await context.close();
});
