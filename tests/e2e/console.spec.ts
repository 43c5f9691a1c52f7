import path from 'node:path';
import { expect, test } from '@playwright/test';
import { authPaths } from '#shared/api/paths.ts';
import { storeLastWeekRun } from '#test-support/honest-run.ts';
import { runAdminCli } from '#test-support/admin-cli.ts';
import { TestWallet } from '#test-support/test-wallet.ts';
import {
  addVirtualAuthenticator,
  expireStepUp,
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

test('a moderator signs in inside the console, adds a passkey and hides a reported meme: off the open gallery, its page a 404', async ({
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
  // A visitor has the gallery open: the moderator's decision takes the meme off it.
  const visitorContext = await browser.newContext();
  const visitor = await visitorContext.newPage();
  await visitor.goto('/#gallery');
  const visitorCard = visitor.getByTestId('meme-card').filter({ hasText: title });
  await expect(visitorCard).toBeVisible({ timeout: 30_000 });

  // The moderator is made one from the shell, then signs in inside the console: the page
  // follows, with no reload.
  const name = uniqueUsername('mod');
  await signUpViaApi(page, name, PASSWORD);
  expect(await admin('users:role', name, 'moderator')).toContain(`${name} is now moderator`);
  await addVirtualAuthenticator(page);

  const pageLoad = await page.goto('/admin');
  expect(pageLoad?.headers()['cache-control']).toBe('no-store');
  await expect(page.locator('meta[name="robots"]')).toHaveAttribute('content', /noindex/);
  await expect(page.getByText('Sign in with your account first.')).toBeVisible({
    timeout: 30_000,
  });
  await page.getByRole('main').getByRole('button', { name: 'Sign in' }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByLabel('Username').fill(name);
  await dialog.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await dialog.getByRole('button', { name: 'Sign In', exact: true }).click();
  await expect(page.getByRole('heading', { name: 'Add a passkey' })).toBeVisible();
  await page.screenshot({ path: testInfo.outputPath('console-add-passkey.png') });
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Add a passkey' }).click();

  // A moderator's tabs: no Burns, no Prize week; their addresses say whose they are.
  const nav = page.getByRole('navigation', { name: 'Console' });
  await expect(nav).toBeVisible();
  await expect(nav.getByRole('link', { name: 'Queue' })).toBeVisible();
  await expect(nav.getByRole('link', { name: 'Burns' })).toHaveCount(0);
  await expect(nav.getByRole('link', { name: 'Prize week' })).toHaveCount(0);
  await page.goto('/admin/burns');
  await expect(page.getByRole('main').getByRole('alert')).toHaveText(
    'Burns is for admins only; you are signed in as a moderator.',
  );
  await expect(page.getByLabel('Burn transaction signature')).toHaveCount(0);
  await nav.getByRole('link', { name: 'Queue' }).click();

  const entry = page.getByTestId('queue-entry').filter({ hasText: title });
  await expect(entry).toBeVisible();
  await expect(entry).toContainText('1 report(s)');
  await page.screenshot({ path: testInfo.outputPath('console-queue.png'), fullPage: true });
  await entry.getByLabel(/Reason for meme/).fill('spam link in the picture');
  // The passkey sign-in lapses while the page is open (as after 15 idle minutes): the decision
  // asks for the passkey over the page, then goes through.
  await expireStepUp(name);
  await entry.getByRole('button', { name: 'Hide' }).click();
  const prompt = page.getByRole('dialog', { name: 'Use your passkey again' });
  await expect(prompt).toBeVisible();
  await expect(entry.getByLabel(/Reason for meme/)).toHaveValue('spam link in the picture');
  await page.screenshot({ path: testInfo.outputPath('console-step-up.png') });
  await prompt.getByRole('button', { name: 'Use my passkey' }).click();
  await expect(prompt).toHaveCount(0);
  await expect(page.getByTestId('queue-entry').filter({ hasText: title })).toHaveCount(0);

  // The open gallery lost the card without a reload; its page 404s for visitors.
  await expect(visitorCard).toHaveCount(0);
  const memePage = await visitor.goto(`/memes/${memeId}`);
  expect(memePage?.status()).toBe(404);
  await visitorContext.close();

  // The decision is on the log, with the moderator's name and the reason; part of the name, in
  // another case, finds it.
  await nav.getByRole('link', { name: 'Log' }).click();
  await page.getByLabel('Operator').fill(name.slice(0, 9).toUpperCase());
  await expect(
    page.getByTestId('log-entry').filter({ hasText: 'spam link in the picture' }),
  ).toContainText(name);
  await page.screenshot({ path: testInfo.outputPath('console-log.png'), fullPage: true });

  // At 390x844 every tab is on screen, none scrolled out of sight.
  await page.setViewportSize({ width: 390, height: 844 });
  for (const tab of await nav.getByRole('link').all()) {
    const box = (await tab.boundingBox())!;
    expect(box.x).toBeGreaterThanOrEqual(0);
    expect(box.x + box.width).toBeLessThanOrEqual(390);
  }
  await page.screenshot({ path: testInfo.outputPath('console-log-phone.png'), fullPage: true });
  await page.setViewportSize({ width: 1280, height: 800 });

  // The overview: five 30-day charts, drawn as SVG.
  await nav.getByRole('link', { name: 'Overview' }).click();
  await expect(page.getByTestId('mini-chart')).toHaveCount(5);
  await page.screenshot({ path: testInfo.outputPath('console-overview.png'), fullPage: true });

  // The account menu links the console; Logout inside the console shows its door at once.
  await page.getByRole('button', { name: 'Account menu' }).click();
  const menu = page.getByRole('menu');
  await expect(menu.getByRole('menuitem', { name: 'Operator console' })).toHaveAttribute(
    'href',
    '/admin',
  );
  await menu.getByRole('menuitem', { name: 'Logout' }).click();
  await expect(page.getByText('Sign in with your account first.')).toBeVisible();
  await expect(nav).toHaveCount(0);
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
  const laptop = await addVirtualAuthenticator(page);
  await page.goto('/admin/passkeys');
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Add a passkey' }).click();

  // A backup passkey on another device (a security key), named; Remove asks first.
  const passkeys = page.getByTestId('passkey');
  await expect(passkeys).toHaveCount(1);
  await laptop.remove();
  await addVirtualAuthenticator(page);
  await page.getByLabel('Name', { exact: true }).fill('Backup key');
  await page.getByLabel('Your password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Add the passkey' }).click();
  await expect(passkeys.filter({ hasText: 'Backup key' })).toBeVisible();
  await expect(passkeys).toHaveCount(2);
  const first = passkeys.first();
  await first.getByRole('button', { name: 'Remove' }).click();
  await expect(first.getByRole('alertdialog')).toContainText('your other sessions are signed out');
  await page.screenshot({ path: testInfo.outputPath('console-passkeys.png'), fullPage: true });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.screenshot({
    path: testInfo.outputPath('console-passkeys-phone.png'),
    fullPage: true,
  });
  await page.setViewportSize({ width: 1280, height: 800 });
  await first.getByRole('button', { name: 'Keep it' }).click();
  await expect(passkeys).toHaveCount(2);
  await first.getByRole('button', { name: 'Remove' }).click();
  await first.getByRole('button', { name: 'Remove it' }).click();
  await expect(passkeys).toHaveCount(1);
  await expect(passkeys).toContainText('Backup key');

  await page.getByRole('link', { name: 'Members' }).click();
  await page.getByLabel('Find a member').fill(memberName);
  await page.getByRole('button', { name: memberName }).click();
  await page.getByLabel('Reason', { exact: true }).fill('vote brigading');
  await page.getByLabel('Length').selectOption('week');
  // The member's meme stays up (no clean-up), so their vote meets the suspension's refusal.
  await page.getByLabel('Also hide their memes and remove their votes and reports').uncheck();
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
  // One appeal per suspension: the next refusal's Appeal says it was sent, with no second form.
  await member.getByRole('button', { name: 'Upvote' }).first().click();
  await refusal.last().getByRole('button', { name: 'Appeal' }).click();
  await expect(member.getByTestId('appeal-filed')).toContainText('You appealed this suspension on');
  await expect(member.getByLabel('Why should it be lifted? You can appeal once.')).toHaveCount(0);
  await member.getByTestId('appeal-filed').getByRole('button', { name: 'Close' }).click();

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
