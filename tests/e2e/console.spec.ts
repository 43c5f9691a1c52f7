import path from 'node:path';
import { expect, test } from '@playwright/test';
import { authPaths } from '#shared/api/paths.ts';
import { storeLastWeekRun } from '#test-support/honest-run.ts';
import { runAdminCli } from '#test-support/admin-cli.ts';
import { TestWallet } from '#test-support/test-wallet.ts';
import {
  addVirtualAuthenticator,
  postedMeme,
  signInViaApi,
  signUpViaApi,
  uniqueUsername,
} from './support';

// The operator console in Chromium with its virtual authenticator (CDP WebAuthn): real
// passkeys, no mocks. The site runs at http://localhost:PORT (playwright.config.ts), since
// browsers refuse an IP address as a passkey's relying party.

const PASSWORD = 'grind123';

/** `npm run admin -- ...` against the e2e server's data folder, as an operator would. */
async function admin(...args: string[]): Promise<string> {
  const run = await runAdminCli({ DATA_DIR: process.env.E2E_DATA_DIR, NODE_ENV: 'test' }, ...args);
  expect(run.code, run.stderr).toBe(0);
  return run.stdout;
}

test('a moderator adds a passkey and hides a reported meme, whose page then 404s for visitors', async ({
  page,
  browser,
}, testInfo) => {
  // A member posts a meme; a visitor reports it.
  const uploaderContext = await browser.newContext();
  const uploader = await uploaderContext.newPage();
  await signUpViaApi(uploader, uniqueUsername('upl'));
  const title = `Reported ${uniqueUsername('m')}`;
  const memeId = (await postedMeme(uploader, title)).id;
  const report = await uploader.request.post(`/api/memes/${memeId}/report`, {
    data: { reason: 'spam' },
    headers: {
      'x-csrf-token': (
        (await (await uploader.request.get(authPaths.csrfToken)).json()) as {
          csrfToken: string;
        }
      ).csrfToken,
    },
  });
  expect(report.status()).toBe(200);
  await uploaderContext.close();

  // The moderator is made one from the shell, then works in the browser.
  const name = uniqueUsername('mod');
  await signUpViaApi(page, name, PASSWORD);
  expect(await admin('users:role', name, 'moderator')).toContain(`${name} is now moderator`);
  await signInViaApi(page, name, PASSWORD);
  await addVirtualAuthenticator(page);

  const pageLoad = await page.goto('/admin');
  expect(pageLoad?.headers()['cache-control']).toBe('no-store');
  await expect(page.locator('meta[name="robots"]')).toHaveAttribute('content', /noindex/);
  await expect(page.getByRole('heading', { name: 'Add a passkey' })).toBeVisible({
    timeout: 30_000,
  });
  await page.screenshot({ path: testInfo.outputPath('console-add-passkey.png') });
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Add a passkey' }).click();

  await expect(page.getByRole('navigation', { name: 'Console' })).toBeVisible();
  const entry = page.getByTestId('queue-entry').filter({ hasText: title });
  await expect(entry).toBeVisible();
  await expect(entry).toContainText('1 report(s)');
  await page.screenshot({ path: testInfo.outputPath('console-queue.png'), fullPage: true });
  await entry.getByLabel(/Reason for meme/).fill('spam link in the picture');
  await entry.getByRole('button', { name: 'Hide' }).click();
  await expect(page.getByTestId('queue-entry').filter({ hasText: title })).toHaveCount(0);

  // Its page is the 404 page for a visitor now.
  const visitorContext = await browser.newContext();
  const visitor = await visitorContext.newPage();
  const memePage = await visitor.goto(`/memes/${memeId}`);
  expect(memePage?.status()).toBe(404);
  await visitorContext.close();

  // The decision is on the log, with the moderator's name and the reason.
  await page.getByRole('link', { name: 'Log' }).click();
  await expect(
    page.getByTestId('log-entry').filter({ hasText: 'spam link in the picture' }),
  ).toContainText(name);
  await page.screenshot({ path: testInfo.outputPath('console-log.png'), fullPage: true });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.screenshot({ path: testInfo.outputPath('console-log-phone.png'), fullPage: true });
  await page.setViewportSize({ width: 1280, height: 800 });

  // The overview: five 30-day charts, drawn as SVG.
  await page.getByRole('link', { name: 'Overview' }).click();
  await expect(page.getByTestId('mini-chart')).toHaveCount(5);
  await page.screenshot({ path: testInfo.outputPath('console-overview.png'), fullPage: true });
});

test('a moderator suspends a member from the Members page; their vote gets the refusal toast, they appeal from it, the appeal is lifted and they are told', async ({
  page,
  browser,
}, testInfo) => {
  // Two people, a suspension, an appeal and its decision: a long journey.
  test.setTimeout(120_000);
  const memberContext = await browser.newContext();
  const member = await memberContext.newPage();
  const memberName = uniqueUsername('sus');
  await signUpViaApi(member, memberName);
  const memeId = (await postedMeme(member, `Suspended vote ${uniqueUsername('v')}`)).id;

  const name = uniqueUsername('mod');
  await signUpViaApi(page, name, PASSWORD);
  await admin('users:role', name, 'moderator');
  await signInViaApi(page, name, PASSWORD);
  await addVirtualAuthenticator(page);
  await page.goto('/admin/members');
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Add a passkey' }).click();
  await page.getByLabel('Find a member').fill(memberName);
  await page.getByRole('button', { name: memberName }).click();
  await page.getByLabel('Reason', { exact: true }).fill('vote brigading');
  await page.getByLabel('Length').selectOption('week');
  await page.getByRole('button', { name: 'Suspend' }).click();
  await expect(page.getByText(/Suspended until .*: vote brigading/)).toBeVisible();
  await page.screenshot({ path: testInfo.outputPath('console-members.png'), fullPage: true });

  await member.goto(`/memes/${memeId}`);
  await member.getByRole('button', { name: 'Upvote' }).first().click();
  const refusal = member
    .locator('li[data-variant]')
    .filter({ hasText: 'Your account is suspended' });
  await expect(refusal).toContainText('vote brigading');
  await member.screenshot({ path: testInfo.outputPath('refusal-toast.png') });

  // From the refusal the member appeals, once; the appeal waits in the moderator's queue.
  await refusal.getByRole('button', { name: 'Appeal' }).click();
  const appealText = 'I voted with my friends, not with a script.';
  await member.getByLabel('Why should it be lifted? You can appeal once.').fill(appealText);
  await member.screenshot({ path: testInfo.outputPath('appeal-form.png') });
  await member.setViewportSize({ width: 390, height: 844 });
  await member.screenshot({ path: testInfo.outputPath('appeal-form-phone.png') });
  await member.getByRole('button', { name: 'Send appeal' }).click();
  await expect(member.locator('li[data-variant]').filter({ hasText: 'Appeal sent' })).toBeVisible();

  await page.getByRole('link', { name: 'Queue' }).click();
  const appeal = page.getByTestId('appeal-entry').filter({ hasText: memberName });
  await expect(appeal).toContainText(appealText);
  await expect(appeal).toContainText('vote brigading');
  await page.screenshot({ path: testInfo.outputPath('console-appeals.png'), fullPage: true });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.screenshot({ path: testInfo.outputPath('console-appeals-phone.png'), fullPage: true });
  await page.setViewportSize({ width: 1280, height: 800 });
  await appeal.getByLabel(`Reason for the appeal of ${memberName}`).fill('friends, fair enough');
  await appeal.getByRole('button', { name: 'Lift suspension' }).click();
  await expect(appeal).toHaveCount(0);

  // The member is told the decision on their next visit, once.
  await member.reload();
  await expect(
    member.locator('li[data-variant]').filter({ hasText: 'Your suspension is lifted' }),
  ).toContainText('friends, fair enough');
  await member.screenshot({ path: testInfo.outputPath('appeal-decision.png') });
  await member.reload();
  await expect(member.getByRole('button', { name: 'Upvote' }).first()).toBeVisible();
  await expect(member.locator('li[data-variant]')).toHaveCount(0);
  await memberContext.close();
});

test('an admin approves the closed week only after watching the replay to its end', async ({
  page,
  browser,
}, testInfo) => {
  // The approval is once per week on the shared server: one project runs it.
  test.skip(testInfo.project.name !== 'desktop', 'one approval per week on the shared server');
  const memberContext = await browser.newContext();
  const member = await memberContext.newPage();
  const memberName = uniqueUsername('win');
  await signUpViaApi(member, memberName);
  await memberContext.close();

  // The member's run of last week and their wallet, stored as the game and the wallet link do.
  await storeLastWeekRun(
    path.join(process.env.E2E_DATA_DIR!, 'app.db'),
    memberName,
    400,
    (db, userId, at) =>
      db
        .insertInto('user_wallets')
        .values({
          user_id: userId,
          address: new TestWallet().address,
          message: 'e2e',
          signature: 'e2e',
          linked_at: at,
        })
        .execute(),
  );

  const name = uniqueUsername('adm');
  await signUpViaApi(page, name, PASSWORD);
  await admin('users:role', name, 'admin');
  await signInViaApi(page, name, PASSWORD);
  await addVirtualAuthenticator(page);
  await page.goto('/admin/prize-week');
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Add a passkey' }).click();

  const card = page.getByTestId('prize-run').filter({ hasText: memberName });
  await expect(card).toBeVisible({ timeout: 30_000 });
  const approve = card.getByRole('button', { name: 'Approve' });
  await expect(approve).toBeDisabled();
  await page.screenshot({ path: testInfo.outputPath('prize-week.png'), fullPage: true });

  await card.getByRole('button', { name: 'Watch the replay' }).click();
  await card.getByLabel('Speed').selectOption('4');
  // Still playing: no approval yet.
  await expect(approve).toBeDisabled();
  await expect(card.getByTestId('watch-state')).toHaveText('Replay watched to its end.', {
    timeout: 30_000,
  });
  await expect(approve).toBeEnabled();
  await approve.click();
  await expect(page.getByText(`Approved: ${memberName}`)).toBeVisible();
  // This server has no SOLANA_RPC_URL: nothing can be paid, and the console says how to set one.
  await expect(page.getByTestId('payment-state')).toContainText('set SOLANA_RPC_URL');
  await page.screenshot({ path: testInfo.outputPath('prize-week-approved.png'), fullPage: true });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.screenshot({ path: testInfo.outputPath('prize-week-phone.png'), fullPage: true });
});
