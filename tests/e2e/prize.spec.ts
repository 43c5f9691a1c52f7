import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { createDatabase } from '#server/db/create-database.ts';
import { insertRun, insertScore, recordVerification } from '#server/game/repository.ts';
import { shortAddress } from '#shared/siws.ts';
import { isoWeekId, WEEK_MS, weekStartUtc } from '#shared/time.ts';
import { authPaths, walletPaths } from '#shared/api/paths.ts';
import { runAdminCli } from '#test-support/admin-cli.ts';
import { playHonestly } from '#test-support/honest-run.ts';
import { freePort, startNode, type NodeProcess } from '#test-support/node-process.ts';
import { pageWalletScript } from '#test-support/page-wallet-script.ts';
import { TestWallet } from '#test-support/test-wallet.ts';
import { fundedSigner, prizeTransfer } from '#test-support/chain-transactions.ts';
import { TestChain } from '#test-support/test-chain.ts';
import { toastWith, uniqueUsername } from './support';

// The weekly prize end to end, on a server of its own: a paid week would take the shared
// server's Recent Winners off the spec's empty text, which other specs check. A test wallet
// registered through the Wallet Standard stands in for a browser extension; the payment is a
// real transaction executed in LiteSVM behind the test RPC (tests/support/test-chain.ts).

const WALLET_NAME = 'Grind Test Wallet';
test.describe.configure({ mode: 'serial' });

let node: NodeProcess;
let chain: TestChain;
let dataDir: string;
let member: { username: string; wallet: TestWallet } | undefined;

test.beforeAll(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'grind-prize-e2e-'));
  const port = await freePort();
  chain = new TestChain();
  await chain.start();
  node = await startNode({
    env: {
      SOLANA_RPC_URL: chain.url,
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

async function openPrizeBox(page: Page) {
  await page.goto(`${node.origin}/`);
  await page.locator('section#game').scrollIntoViewIfNeeded();
  const box = page.getByTestId('prize-eligibility');
  await expect(box).toBeVisible({ timeout: 30_000 });
  return box;
}

test('a member links a Solana wallet from the prize box; the wallet code loads only then', async ({
  page,
}) => {
  const wallet = new TestWallet();
  await page.exposeFunction('testWalletSign', (messageBase64: string) =>
    Buffer.from(wallet.sign(Buffer.from(messageBase64, 'base64'))).toString('base64'),
  );
  await page.addInitScript({ content: pageWalletScript(wallet, WALLET_NAME) });
  const scripts: string[] = [];
  page.on('request', (request) => {
    if (request.resourceType() === 'script') scripts.push(request.url());
  });
  const walletChunkLoaded = () => scripts.some((url) => url.includes('wallet-link-dialog'));

  // A visitor is told who can be paid.
  let box = await openPrizeBox(page);
  await expect(box).toHaveText('The prize goes to members with a linked Solana wallet.');
  expect(walletChunkLoaded()).toBe(false);

  const username = uniqueUsername('prize');
  const registered = await page.request.post(`${node.origin}${authPaths.register}`, {
    data: { username, password: 'grind123' },
  });
  expect(registered.status()).toBe(201);
  box = await openPrizeBox(page);
  await expect(box).toContainText('Link a Solana wallet to be eligible for the prize.');
  expect(walletChunkLoaded()).toBe(false);

  await box.getByRole('button', { name: 'Link wallet' }).click();
  const dialog = page.getByRole('dialog', { name: 'Link your prize wallet' });
  // The password again before any wallet can sign (decision 019).
  const sign = dialog.getByRole('button', { name: `Sign with ${WALLET_NAME}` });
  await expect(sign).toBeDisabled();
  await dialog.getByLabel('Your password').fill('grind123');
  await sign.click();
  await expect(toastWith(page, 'Wallet linked')).toBeVisible();
  await expect(dialog).toBeHidden();
  await expect(box).toContainText(
    `You are eligible: the prize is paid to ${shortAddress(wallet.address)}.`,
  );
  expect(walletChunkLoaded()).toBe(true);
  const stored = await page.request.get(`${node.origin}${walletPaths.wallet}`);
  expect((await stored.json()).wallet.address).toBe(wallet.address);

  // After a reload the box remembers, and offers a change.
  box = await openPrizeBox(page);
  await expect(box.getByRole('button', { name: 'Change wallet' })).toBeVisible();
  member = { username, wallet };
});

/** One operator command, as `npm run admin --` runs it against this server's data folder. */
function admin(...args: string[]) {
  return runAdminCli({ DATA_DIR: dataDir, NODE_ENV: 'test', SOLANA_RPC_URL: chain.url }, ...args);
}

test('Recent Winners shows a week the operator reviewed, approved and paid', async ({ page }) => {
  test.skip(member === undefined, 'needs the member linked by the test before');
  const { username, wallet } = member!;

  // The member's run of last week, stored as the game stores a replayed run.
  const lastWeek = Date.now() - WEEK_MS;
  const db = createDatabase({ kind: 'sqlite', file: path.join(dataDir, 'app.db') });
  const runId = randomBytes(16).toString('base64url');
  try {
    const user = await db
      .selectFrom('users')
      .select('id')
      .where('username', '=', username)
      .executeTakeFirstOrThrow();
    const seed = randomBytes(4).readUInt32LE();
    const run = playHonestly(runId, seed, 500);
    await insertRun(db, { id: runId, seed, userId: user.id, issuedAt: lastWeek - 60_000 });
    await recordVerification(db, runId, { inputs: run.inputs, ...run.result }, lastWeek);
    await insertScore(db, {
      runId,
      userId: user.id,
      playerKey: `u:${user.id}`,
      playerName: username,
      score: run.result.score,
      level: run.result.level,
      tasksCompleted: run.result.tasksCompleted,
      powerUpsCollected: run.result.powerUpsCollected,
      gameTime: run.result.gameTime,
      weekStart: weekStartUtc(lastWeek),
      createdAt: lastWeek,
    });
  } finally {
    await db.destroy();
  }

  const week = isoWeekId(lastWeek);
  const review = await admin('prize:review');
  expect(review.stdout).toContain(`yes: wallet ${wallet.address}`);
  expect(review.code).toBe(0);
  expect((await admin('prize:approve', '--week', week, `--run=${runId}`)).code).toBe(0);
  // The operator's transfer carries the reference key and memo prize:prepare gives.
  const prepared = await admin('prize:prepare', '--week', week);
  expect(prepared.code, prepared.stdout + prepared.stderr).toBe(0);
  const [, lamportsText, reference, memo] =
    /\((\d+) lamports\).*reference key (\S+) as .* memo "([^"]+)"/.exec(prepared.stdout)!;
  const signature = chain.send(
    await prizeTransfer(chain, await fundedSigner(chain), {
      to: wallet.address,
      lamports: BigInt(lamportsText!),
      reference: reference!,
      memo: memo!,
    }),
  );
  const paid = await admin('prize:paid', '--week', week, '--tx', signature);
  expect(paid.code, paid.stdout + paid.stderr).toBe(0);

  await page.goto(`${node.origin}/`);
  const giveaway = page.locator('section#giveaway');
  await giveaway.scrollIntoViewIfNeeded();
  const winner = giveaway.getByTestId('winners').getByRole('listitem');
  await expect(winner).toHaveCount(1, { timeout: 30_000 });
  await expect(winner).toContainText(username);
  await expect(winner).toContainText(`1 SOL · week ${week} · to ${shortAddress(wallet.address)}`);
  await expect(winner.getByRole('link', { name: /Transaction/ })).toHaveAttribute(
    'href',
    `https://solscan.io/tx/${signature}`,
  );
  // Marked verified on chain, with the slot the site verified it at.
  const verified = winner.getByTestId('winner-verified');
  await expect(verified).toContainText(/^Verified on chain · slot \d+$/);
  await expect(verified).toHaveAttribute('title', /^Verified on chain at finalized, slot \d+$/);
  await expect(giveaway.getByTestId('no-winners')).toHaveCount(0);
});
