import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import type { Meme } from '#shared/api/memes.ts';
import { authPaths, memePaths, pathTo } from '#shared/api/paths.ts';
import { runAdminCli } from '#test-support/admin-cli.ts';
import { freePort, startNode, type NodeProcess } from '#test-support/node-process.ts';
import {
  addVirtualAuthenticator,
  expireStepUp,
  freshPicture,
  postMemeViaApi,
  signInViaApi,
  signUpViaApi,
  toastWith,
  uniqueUsername,
} from './support';

// Raid day (issue 43, docs/decisions/027-raid-day.md) end to end: an admin turns raid mode on in
// the console, the page says so, a brand-new account signs up by the proof of work its browser
// solves and is refused a post and a vote with the reason, an image held by the classifier
// waits blurred in the queue, and the admin turns raid mode off.
//
// On a server of its own: raid mode is site-wide, and while it is on the shared server's other
// journeys (sign-ups through the dialog or the API, posts and votes of new accounts, visitors'
// votes) would be refused. This node also screens images with the shipped classifier, which the
// shared server (NODE_ENV=test) does not. Its hold threshold is 0, as in the screening suite
// (src/server/uploads/screening.test.ts): every picture the model scores is held, with the
// model's own score. The repository ships no unsafe picture, and a test fetches none.

test.describe.configure({ mode: 'serial' });

const PASSWORD = 'grind123';
/** The page's line while raid mode is on (src/shared/raid.ts RAID_NOTICE). */
const NOTICE =
  'The site is in raid mode: new accounts cannot post, vote or report, visitors cannot vote, and signing up takes a short check in your browser.';
/** What a new account is told (src/server/raid/guard.ts, 403 RAID_MODE). */
const REFUSAL =
  'The site is in raid mode: accounts of standing New cannot post, vote, report or appeal until it ends. Your account is not affected otherwise.';

let node: NodeProcess;
let dataDir: string;
let origin: string;

test.beforeAll(async () => {
  // A server start with the classifier's model loading beside it: slow on a busy machine.
  test.setTimeout(180_000);
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'grind-raid-e2e-'));
  const port = await freePort();
  // localhost, not 127.0.0.1: browsers refuse an IP address as a passkey's relying party.
  origin = `http://localhost:${port}`;
  node = await startNode({
    readyTimeoutMs: 150_000,
    env: {
      DATA_DIR: dataDir,
      NODE_ENV: 'test',
      PORT: String(port),
      TRUST_PROXY: 'true',
      PUBLIC_ORIGIN: origin,
      SCREEN_IMAGES: 'true',
      SCREEN_HOLD_THRESHOLD: '0',
    },
  });
});

test.afterAll(async () => {
  await node?.stop();
  if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
});

/** The page's read of whether raid mode is on (it runs once the page is idle). */
function raidModeRead(page: Page) {
  return page.waitForResponse(
    (response) => new URL(response.url()).pathname === '/api/raid-mode' && response.ok(),
  );
}

test('raid day: an admin turns raid mode on; a new account signs up by proof of work and is refused a post and a vote with the reason; a held image is blurred in the queue; raid mode off lets the vote count', async ({
  browser,
}, testInfo) => {
  // Four people, a proof of work and the classifier's first score (its model loads at start).
  test.setTimeout(120_000);
  const newPage = async () => (await browser.newContext({ baseURL: origin })).newPage();

  // Before the raid: a member posts a picture; the shipped classifier scores it and holds it,
  // shown to its owner and to nobody else.
  const uploader = await newPage();
  const uploaderName = uniqueUsername('upl');
  await signUpViaApi(uploader, uploaderName, PASSWORD);
  const title = `Held picture ${uniqueUsername('m')}`;
  const posted = await postMemeViaApi(uploader, title);
  expect(posted.status(), await posted.text()).toBe(201);
  const held = ((await posted.json()) as { meme: Meme }).meme;
  expect(held.held).toBe(true);
  const memeApi = pathTo(memePaths.one, { id: held.id });
  expect(await (await uploader.request.get(memeApi)).json()).toMatchObject({
    id: held.id,
    held: true,
  });
  await uploader.context().close();

  // A visitor has the page open: raid mode is off, no notice.
  const visitor = await newPage();
  expect((await visitor.request.get(memeApi)).status()).toBe(404);
  let read = raidModeRead(visitor);
  await visitor.goto('/');
  expect(await (await read).json()).toMatchObject({ active: false });
  await expect(visitor.getByTestId('raid-notice')).toHaveCount(0);

  // The admin: made one from the shell, signed in again, a passkey added at the console's door.
  const admin = await newPage();
  const adminName = uniqueUsername('raidop');
  await signUpViaApi(admin, adminName, PASSWORD);
  const role = await runAdminCli(
    { DATA_DIR: dataDir, NODE_ENV: 'test' },
    'users:role',
    adminName,
    'admin',
  );
  expect(role.code, role.stderr).toBe(0);
  expect(role.stdout).toContain(`${adminName} is now admin`);
  await signInViaApi(admin, adminName, PASSWORD);
  await addVirtualAuthenticator(admin);
  await admin.goto('/admin/raid');
  await admin.getByLabel('Password').fill(PASSWORD);
  await admin.getByRole('button', { name: 'Add a passkey' }).click();
  const nav = admin.getByRole('navigation', { name: 'Console' });
  const raidState = admin.getByTestId('raid-state');
  await expect(raidState).toHaveText('Off.', { timeout: 30_000 });

  // 1. Raid mode on, by hand; the public page says so.
  const onReason = 'a crowd of fresh accounts is posting scam pictures';
  const switchButton = admin.getByRole('button', { name: /^Turn raid mode (on|off)$/ });
  await expect(switchButton).toHaveText('Turn raid mode on');
  await expect(switchButton).toBeDisabled();
  await admin.getByLabel('Reason for raid mode').fill(onReason);
  await switchButton.click();
  await expect(toastWith(admin, 'Raid mode is on')).toBeVisible();
  await expect(raidState).toHaveText(
    /^On since .+ \(by hand\): new accounts cannot post, vote or report, sign-ups need a proof of work, visitor votes are paused\.$/,
  );
  await expect(switchButton).toHaveText('Turn raid mode off');
  read = raidModeRead(visitor);
  await visitor.reload();
  expect(await (await read).json()).toMatchObject({ active: true });
  await expect(visitor.getByTestId('raid-notice')).toHaveText(NOTICE);
  await visitor.screenshot({ path: testInfo.outputPath('raid-notice.png') });

  // 2. A brand-new account. Without the browser's proof of work the server refuses the sign-up;
  // through the dialog the browser solves the ALTCHA challenge and the account is opened.
  const member = await newPage();
  const bare = await member.request.post(authPaths.register, {
    data: { username: uniqueUsername('bot'), password: PASSWORD },
    headers: { 'x-forwarded-for': '203.0.113.43' },
  });
  expect(bare.status()).toBe(403);
  expect(await bare.json()).toMatchObject({
    code: 'CHALLENGE_REQUIRED',
    message:
      'The site is in raid mode: signing up needs the check your browser solves first (none was sent). Please try again.',
  });
  await member.goto('/#gallery');
  await expect(member.getByTestId('raid-notice')).toHaveText(NOTICE, { timeout: 30_000 });
  await member.getByRole('button', { name: 'Sign Up' }).click();
  const dialog = member.getByRole('dialog');
  await dialog.getByLabel('Username').fill(uniqueUsername('new'));
  await dialog.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await dialog.getByLabel('Confirm Password').fill(PASSWORD);
  const registration = member.waitForRequest(
    (request) => new URL(request.url()).pathname === authPaths.register,
  );
  await dialog.getByRole('button', { name: 'Create Account' }).click();
  const sent = await registration;
  const { altcha } = sent.postDataJSON() as { altcha?: string };
  expect(typeof altcha).toBe('string');
  expect(JSON.parse(Buffer.from(altcha!, 'base64').toString('utf8'))).toMatchObject({
    challenge: { signature: expect.any(String) },
    solution: { counter: expect.any(Number), derivedKey: expect.any(String) },
  });
  expect((await sent.response())?.status()).toBe(201);
  await expect(member.getByRole('button', { name: 'Account menu' })).toBeVisible();

  // It tries to post a meme: refused with the reason, the form back where it was.
  const gallery = member.locator('#gallery');
  await expect(gallery.getByRole('heading', { name: 'Community Meme Gallery' })).toBeVisible({
    timeout: 30_000,
  });
  const uploadRefused = member.waitForResponse(
    (response) => new URL(response.url()).pathname === memePaths.uploadTarget,
  );
  await gallery
    .locator('input[type="file"]')
    .setInputFiles({ name: 'raid.png', mimeType: 'image/png', buffer: await freshPicture() });
  const refusedUpload = await uploadRefused;
  expect(refusedUpload.status()).toBe(403);
  expect(await refusedUpload.json()).toMatchObject({ code: 'RAID_MODE', message: REFUSAL });
  await expect(toastWith(member, 'Upload Error')).toContainText(REFUSAL);
  await expect(
    gallery.getByRole('button', { name: 'Choose Image (JPG, PNG, GIF - max 5 MB)' }),
  ).toBeVisible();
  await member.screenshot({ path: testInfo.outputPath('raid-post-refused.png') });

  // 3. The held picture waits in the moderators' queue, blurred, with the model's score.
  await nav.getByRole('link', { name: 'Queue' }).click();
  const entry = admin.getByTestId('queue-entry').filter({ hasText: title });
  await expect(entry).toContainText(`#${held.id} by ${uploaderName}`);
  const picture = entry.getByRole('img', { name: title });
  await expect(picture).toHaveAttribute('data-held', 'true');
  await expect(picture).toHaveCSS('filter', /blur\(\d+(\.\d+)?px\)/);
  await expect(entry.getByTestId('held-note')).toHaveText(
    /^Held by the image classifier \(score [01]\.\d\d\): shown to its owner only until you decide\. Dismiss or unhide shows it\.$/,
  );
  // Nobody reported it: the card says so rather than "0 report(s):" and a last report's time.
  await expect(entry).toContainText('No reports');
  await expect(entry).not.toContainText('report(s)');
  await admin.screenshot({ path: testInfo.outputPath('raid-queue-held.png'), fullPage: true });

  // The moderator looks and lets it be: it leaves the queue and is shown to everybody.
  await entry.getByLabel(`Reason for meme ${held.id}`).fill('coloured squares, nothing unsafe');
  await entry.getByRole('button', { name: 'Dismiss reports' }).click();
  await expect(toastWith(admin, 'Dismiss reports: done')).toBeVisible();
  await expect(entry).toHaveCount(0);
  expect((await visitor.request.get(memeApi)).status()).toBe(200);

  // The new account tries to vote on it: refused with the reason, the vote not counted.
  await member.goto(`/memes/${held.id}`);
  const upvote = member.getByRole('button', { name: 'Upvote' }).first();
  await upvote.click();
  await expect(toastWith(member, 'Failed to vote on meme')).toContainText(REFUSAL);
  await expect(upvote).toHaveAttribute('aria-pressed', 'false');
  await expect(upvote).toHaveAccessibleName('Upvote (0)');
  await member.screenshot({ path: testInfo.outputPath('raid-vote-refused.png') });

  // 4. Raid mode off, by hand: the notice goes, and the same account's vote counts.
  await nav.getByRole('link', { name: 'Raid', exact: true }).click();
  const offReason = 'the crowd has gone, the queue is clear';
  await admin.getByLabel('Reason for raid mode').fill(offReason);
  // The passkey sign-in has lapsed meanwhile: the switch asks for the passkey over the page,
  // then goes through.
  await expireStepUp(adminName, dataDir);
  await switchButton.click();
  const prompt = admin.getByRole('dialog', { name: 'Use your passkey again' });
  await prompt.getByRole('button', { name: 'Use my passkey' }).click();
  await expect(prompt).toHaveCount(0);
  await expect(toastWith(admin, 'Raid mode is off')).toBeVisible();
  await expect(raidState).toHaveText('Off.');
  await expect(switchButton).toHaveText('Turn raid mode on');
  read = raidModeRead(visitor);
  await visitor.reload();
  expect(await (await read).json()).toMatchObject({ active: false });
  await expect(visitor.getByTestId('raid-notice')).toHaveCount(0);
  await upvote.click();
  await expect(upvote).toHaveAttribute('aria-pressed', 'true');
  await expect(upvote).toHaveAccessibleName('Upvote (1)');

  // Both switches are on the operator log, with the admin's name and reason.
  await nav.getByRole('link', { name: 'Log' }).click();
  const logged = admin.getByTestId('log-entry');
  await expect(logged.filter({ hasText: onReason })).toContainText(`${adminName}`);
  await expect(logged.filter({ hasText: onReason })).toContainText('raid-on');
  await expect(logged.filter({ hasText: offReason })).toContainText('raid-off');

  for (const page of [visitor, member, admin]) await page.context().close();
});
