import fs from 'node:fs';
import path from 'node:path';
import { expect, test, type APIResponse, type Page } from '@playwright/test';
import sharp from 'sharp';
import { freePort, REPO_ROOT, startNode, type NodeProcess } from '#test-support/node-process.ts';
import { startScratchSite, type ScratchSite } from '#test-support/scratch-site.ts';
import { createDatabase } from '#server/db/create-database.ts';
import type { Meme } from '#shared/api/memes.ts';
import { authPaths, memePaths } from '#shared/api/paths.ts';

/** The landing page's sections, by anchor, in the spec's order. */
export const LANDING_SECTION_IDS = [
  'home',
  'tokenomics',
  'chart',
  'roadmap',
  'community',
  'gallery',
  'giveaway',
  'game',
  'contact',
];

let counter = 0;
export function uniqueUsername(prefix = 'e2e'): string {
  counter += 1;
  return `${prefix}_${Date.now().toString(36)}_${process.pid % 1000}_${counter}`.slice(0, 32);
}

export const isPhone = (page: Page) => (page.viewportSize()?.width ?? 1280) < 1024;

/** Registers through the real dialog and waits for the welcome state. */
export async function signUp(page: Page, username: string, password = 'grind123'): Promise<void> {
  await page.getByRole('button', { name: 'Sign Up' }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByLabel('Username').fill(username);
  await dialog.getByLabel('Password', { exact: true }).fill(password);
  await dialog.getByLabel('Confirm Password').fill(password);
  await dialog.getByRole('button', { name: 'Create Account' }).click();
  await expect(page.getByRole('button', { name: 'Account menu' })).toBeVisible();
}

/**
 * Registers over HTTP inside the page's cookie jar (fast set-up for tests about other things),
 * each from its own address as the proxy reports it: the server opens only so many accounts per
 * address and hour, and the test server runs with TRUST_PROXY.
 */
export async function signUpViaApi(
  page: Page,
  username: string,
  password = 'grind123',
): Promise<void> {
  counter += 1;
  const address = `10.${process.pid % 250}.${(counter >> 8) & 255}.${counter & 255}`;
  const res = await page.request.post(authPaths.register, {
    data: { username, password },
    headers: { 'x-forwarded-for': address },
  });
  expect(res.status()).toBe(201);
}

/**
 * Signs in over HTTP inside the page's cookie jar: after `users:role`, which ends every session of
 * the member (decision 022), as a new operator signs in again.
 */
export async function signInViaApi(page: Page, username: string, password = 'grind123') {
  const res = await page.request.post(authPaths.login, { data: { username, password } });
  expect(res.status()).toBe(200);
}

/** The visible toast (Radix also copies its text into a screen-reader announcement). */
export function toastWith(page: Page, text: string) {
  return page.locator('li[data-variant]').filter({ hasText: text });
}

/**
 * Resolves once the page's main thread has had nothing to do (an idle callback): a condition
 * the browser reports, not a guess at how long work takes on a busy machine.
 */
export async function browserIdle(page: Page): Promise<void> {
  await page.evaluate(() => new Promise<void>((resolve) => requestIdleCallback(() => resolve())));
}

/**
 * Resolves once the page has not scrolled for ten frames in a row: a wheel's scroll is animated,
 * and a position read while it runs is neither where it started nor where it ends.
 */
export async function scrollStopped(page: Page): Promise<void> {
  await page.evaluate(
    () =>
      new Promise<void>((resolve) => {
        let last = window.scrollY;
        let still = 0;
        const frame = () => {
          still = window.scrollY === last ? still + 1 : 0;
          last = window.scrollY;
          if (still >= 10) resolve();
          else requestAnimationFrame(frame);
        };
        requestAnimationFrame(frame);
      }),
  );
}

/**
 * Everything the page sent up to now has reached the browser's network layer: a request the
 * page started before this call shows in `page.on('request')` before this resolves.
 */
export async function requestsSoFar(page: Page): Promise<void> {
  await page.evaluate(() => fetch('/healthz').then((res) => res.text()));
}

/** A picture no other test posts (random shades), so the duplicate check lets it through. */
export async function freshPicture(): Promise<Buffer> {
  const cells = Buffer.from(
    Array.from({ length: 8 * 6 * 3 }, () => Math.floor(Math.random() * 256)),
  );
  return sharp(cells, { raw: { width: 8, height: 6, channels: 3 } })
    .resize(640, 480, { kernel: 'nearest' })
    .png()
    .toBuffer();
}

/**
 * Upload URL, PUT, processing, post: the member flow over HTTP in the page's cookie jar. Gives
 * the refusal when processing or posting refuses (a test of refusals reads it).
 */
export async function postMemeViaApi(
  page: Page,
  title: string,
  picture?: Buffer,
): Promise<APIResponse> {
  const { csrfToken } = (await (await page.request.get(authPaths.csrfToken)).json()) as {
    csrfToken: string;
  };
  const headers = { 'x-csrf-token': csrfToken };
  const { uploadURL } = (await (
    await page.request.post(memePaths.uploadTarget, { headers })
  ).json()) as { uploadURL: string };
  expect(
    (await page.request.put(uploadURL, { data: picture ?? (await freshPicture()) })).status(),
  ).toBe(200);
  const processed = await page.request.put(memePaths.memeImages, {
    headers,
    data: { imageUrl: uploadURL },
  });
  if (processed.status() !== 200) return processed;
  const { objectPath } = (await processed.json()) as { objectPath: string };
  return page.request.post(memePaths.create, {
    headers,
    data: { title, category: 'overtime', imageUrl: objectPath },
  });
}

/** A meme posted by the member of `page`, which must be accepted. */
export async function postedMeme(page: Page, title: string): Promise<Meme> {
  const res = await postMemeViaApi(page, title);
  expect(res.status(), await res.text()).toBe(201);
  return ((await res.json()) as { meme: Meme }).meme;
}

/**
 * Chromium's virtual authenticator (CDP WebAuthn) on the page: real passkeys, no mocks. `remove`
 * takes it away with its passkeys, as a lost laptop, so the next one is another device.
 */
export async function addVirtualAuthenticator(page: Page): Promise<{ remove(): Promise<void> }> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('WebAuthn.enable');
  const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: {
      protocol: 'ctap2',
      transport: 'internal',
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  });
  return {
    remove: async () => {
      await cdp.send('WebAuthn.removeVirtualAuthenticator', { authenticatorId });
    },
  };
}

/**
 * A server of its own, from the suite's build, for the journeys of one file or describe block:
 * one started with an operator's SITE_CONFIG (the pages are rendered with the site's facts at
 * start), or one whose memes and board no other journey's posts can change. A scratch site on
 * SQLite, behind a trusted proxy as the suite's server is, so `signUpViaApi` works on it too.
 */
export function serverOfItsOwn(siteConfig?: Record<string, unknown>) {
  let site: ScratchSite | undefined;
  let node: NodeProcess | undefined;
  test.beforeAll(async () => {
    // A server start, which on a busy machine takes longer than one test may.
    test.setTimeout(180_000);
    const port = await freePort();
    site = await startScratchSite({
      postgresAdminUrl: undefined,
      publicOrigin: `http://127.0.0.1:${port}`,
      dataDirPrefix: 'grind-e2e-site-',
    });
    const env = site.nodeEnv({
      NODE_ENV: 'test',
      PORT: String(port),
      CLIENT_DIST_DIR: path.join(REPO_ROOT, 'dist/client'),
    });
    if (siteConfig) {
      env.SITE_CONFIG = path.join(env.DATA_DIR, 'site.json');
      fs.writeFileSync(env.SITE_CONFIG, JSON.stringify(siteConfig));
    }
    node = await startNode({ readyTimeoutMs: 150_000, env });
  });
  test.afterAll(async () => {
    await node?.stop();
    await site?.close();
  });
  return { origin: () => node!.origin };
}

/**
 * Ends the passkey step-up of the member's sessions, as 15 idle minutes would: the console reads
 * the session row on each request (decision 022), so the next call is refused PASSKEY_REQUIRED.
 * `dataDir`: the site's data folder (the shared e2e server's unless a journey runs its own).
 */
export async function expireStepUp(
  username: string,
  dataDir = process.env.E2E_DATA_DIR!,
): Promise<void> {
  const db = createDatabase({
    kind: 'sqlite',
    file: path.join(dataDir, 'app.db'),
  });
  try {
    const user = db.selectFrom('users').select('id').where('username', '=', username);
    await db.updateTable('sessions').set({ passkey_at: 0 }).where('user_id', 'in', user).execute();
  } finally {
    await db.destroy();
  }
}
