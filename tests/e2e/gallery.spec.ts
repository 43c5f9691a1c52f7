import { expect, test, type Locator, type Page } from '@playwright/test';
import sharp from 'sharp';
import type { Meme } from '../../src/shared/api/memes.ts';
import { isPhone, signUpViaApi, toastWith, uniqueUsername } from './support.ts';
import { authPaths, memePaths, objectPaths } from '#shared/api/paths.ts';

/**
 * A small PNG no other test uploads, as a phone's file picker hands it over: a grid of random
 * shades, so the server's duplicate check (a perceptual hash) sees a new picture every time.
 */
async function pngFile(name = 'standup.png') {
  const cells = Buffer.from(
    Array.from({ length: 8 * 6 * 3 }, () => Math.floor(Math.random() * 256)),
  );
  const buffer = await sharp(cells, { raw: { width: 8, height: 6, channels: 3 } })
    .resize(320, 240, { kernel: 'nearest' })
    .png()
    .toBuffer();
  return { name, mimeType: 'image/png', buffer };
}

/** The spec's six meme categories, in the order the form and the filters list them. */
const CATEGORY_LABELS = [
  'Office Life',
  'Work From Home',
  'Monday Motivation',
  'Coffee Culture',
  'Overtime',
  'Success',
];

const gallery = (page: Page) => page.locator('#gallery');
const fileInput = (page: Page) => gallery(page).locator('input[type="file"]');
const card = (page: Page, title: string) =>
  page.getByTestId('meme-card').filter({ hasText: title });

type VoteButton = 'Upvote' | 'Downvote';
interface VoteState {
  pressed: VoteButton | null;
  upvotes: string;
  downvotes: string;
}

/** Which vote button of a card is pressed (the other is not) and both counts. */
async function expectVotes(meme: Locator, { pressed, upvotes, downvotes }: VoteState) {
  for (const button of ['Upvote', 'Downvote'] as const) {
    await expect(meme.getByRole('button', { name: new RegExp(`^${button}`) })).toHaveAttribute(
      'aria-pressed',
      String(button === pressed),
    );
  }
  await expect(meme.getByTestId('upvotes')).toHaveText(upvotes);
  await expect(meme.getByTestId('downvotes')).toHaveText(downvotes);
}

async function voteOn(meme: Locator, button: VoteButton, after: VoteState) {
  await meme.getByRole('button', { name: new RegExp(`^${button}`) }).click();
  await expectVotes(meme, after);
}

async function openGallery(page: Page) {
  await page.goto('/#gallery');
  // The gallery's code loads as the page comes near it: on a machine loaded by the whole suite
  // that took over 10 s (CI), as in meme-page.spec.ts.
  await expect(gallery(page).getByRole('heading', { name: 'Community Meme Gallery' })).toBeVisible({
    timeout: 30_000,
  });
}

function fakeMeme(id: number, title: string, category: Meme['category'] = 'success'): Meme {
  return {
    id,
    title,
    category,
    imageUrl: `/objects/memes/${'0'.repeat(63)}${id % 10}.png`,
    thumbnailUrl: `/objects/memes/${'0'.repeat(63)}${id % 10}-thumb.webp`,
    thumbnailWidth: 400,
    thumbnailHeight: 300,
    upvotes: 0,
    downvotes: 0,
    createdAt: new Date().toISOString(),
    myVote: null,
  };
}

test('a visitor browses and is sent to the login dialog to upload', async ({ page }) => {
  await openGallery(page);
  await expect(fileInput(page)).toHaveCount(0);
  await gallery(page).getByRole('button', { name: 'Login to Upload' }).click();
  await expect(
    page.getByRole('dialog').getByRole('heading', { name: 'Welcome Back' }),
  ).toBeVisible();
});

test('a member uploads a meme, sees its card, filters, votes and shares it @phone', async ({
  page,
  context,
}, testInfo) => {
  const name = uniqueUsername('memer');
  await signUpViaApi(page, name);
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  // A device without a share sheet: the link goes to the clipboard.
  await page.addInitScript(() =>
    Object.defineProperty(Navigator.prototype, 'share', { value: undefined }),
  );
  await openGallery(page);

  const form = gallery(page).getByRole('form', { name: 'Upload a meme' });
  const submit = form.getByRole('button', { name: 'Submit Meme' });
  await expect(
    form.getByRole('button', { name: 'Choose Image (JPG, PNG, GIF - max 5 MB)' }),
  ).toBeVisible();
  await expect(submit).toBeDisabled();
  await expect(form.getByLabel('Category').locator('option')).toHaveText([
    'Select a category',
    ...CATEGORY_LABELS,
  ]);

  // Hold the file's PUT a moment to see the progress state.
  let releaseUpload: () => void = () => {};
  const uploadHeld = new Promise<void>((resolve) => (releaseUpload = resolve));
  await page.route(`**${objectPaths.localUploadPrefix}**`, async (route) => {
    await uploadHeld;
    await route.continue();
  });
  await fileInput(page).setInputFiles(await pngFile());
  await expect(form.getByRole('button', { name: /^Uploading\.\.\. \d+%$/ })).toBeDisabled();
  await expect(form.getByRole('progressbar', { name: 'Upload progress' })).toBeVisible();
  releaseUpload();
  await expect(toastWith(page, 'Upload Complete')).toBeVisible();
  await page.unroute(`**${objectPaths.localUploadPrefix}**`);
  await expect(form.getByRole('button', { name: 'Image uploaded! Click to change' })).toBeVisible();
  await expect(form.getByText('✓ Image ready')).toBeVisible();
  await expect(submit).toBeEnabled();
  await form.screenshot({ path: `/tmp/gallery-ready-${testInfo.project.name}.png` });

  await form.getByLabel('Meme Title').fill('   ');
  await submit.click();
  await expect(form.getByRole('alert')).toHaveText('Please fill in all fields and upload an image');

  const title = `Standup ${Date.now().toString(36)} ${testInfo.project.name}`;
  await form.getByLabel('Meme Title').fill(`  ${title}  `);
  await form.getByLabel('Category').selectOption('coffee-culture');
  let releasePost: () => void = () => {};
  const postHeld = new Promise<void>((resolve) => (releasePost = resolve));
  await page.route(`**${memePaths.list}`, async (route) => {
    if (route.request().method() === 'POST') await postHeld;
    await route.continue();
  });
  await submit.click();
  await expect(form.getByRole('button', { name: 'Submitting...' })).toBeDisabled();
  releasePost();
  await expect(toastWith(page, 'Success!')).toBeVisible();
  await page.unroute(`**${memePaths.list}`);
  await expect(form.getByLabel('Meme Title')).toHaveValue('');
  await expect(form.getByLabel('Category')).toHaveValue('');
  await expect(form.getByText('✓ Image ready')).toBeHidden();
  await expect(submit).toBeDisabled();

  const mine = card(page, title);
  await expect(mine).toBeVisible();
  await expect(mine.getByText('Coffee Culture')).toBeVisible();
  const thumbnail = mine.getByRole('img', { name: title });
  await expect(thumbnail).toHaveAttribute('loading', 'lazy');
  await expect(thumbnail).toHaveAttribute('width', '320');
  await expect(thumbnail).toHaveAttribute('height', '240');
  await expect
    .poll(() => thumbnail.evaluate((img: HTMLImageElement) => img.naturalWidth))
    .toBe(320);
  await page.screenshot({
    path: `/tmp/gallery-${testInfo.project.name}.png`,
    fullPage: false,
  });

  const filters = gallery(page).getByRole('group', { name: 'Filter memes by category' });
  await expect(filters.getByRole('button')).toHaveText(['All', ...CATEGORY_LABELS]);
  await filters.getByRole('button', { name: 'Overtime' }).click();
  await expect(filters.getByRole('button', { name: 'Overtime' })).toHaveAttribute(
    'aria-pressed',
    'true',
  );
  await expect(mine).toBeHidden();
  await filters.getByRole('button', { name: 'Coffee Culture' }).click();
  await expect(mine).toBeVisible();
  await expect(page.getByTestId('meme-card').getByText('Office Life')).toHaveCount(0);
  await filters.getByRole('button', { name: 'All' }).click();

  // Each vote, then the card's whole vote state; the downvote outlives a reload.
  await voteOn(mine, 'Upvote', { pressed: 'Upvote', upvotes: '1', downvotes: '0' });
  await voteOn(mine, 'Downvote', { pressed: 'Downvote', upvotes: '0', downvotes: '1' });
  await page.reload();
  await expectVotes(mine, { pressed: 'Downvote', upvotes: '0', downvotes: '1' });
  await voteOn(mine, 'Downvote', { pressed: null, upvotes: '0', downvotes: '0' });
  await voteOn(mine, 'Upvote', { pressed: 'Upvote', upvotes: '1', downvotes: '0' });
  await gallery(page).screenshot({ path: `/tmp/gallery-section-${testInfo.project.name}.png` });
  await card(page, title).getByRole('button', { name: 'Share' }).click();
  await expect(toastWith(page, 'Link copied to clipboard!')).toBeVisible();
  const link = await page.evaluate(() => navigator.clipboard.readText());
  // The meme's own page, which previews as the meme (tags checked in meme-page.spec.ts).
  // On the page's own origin (localhost since the console's passkeys, decision 022).
  const origin = new URL(page.url()).origin.replace(/[.:/]/g, '\\$&');
  expect(link).toMatch(new RegExp(`^${origin}/memes/\\d+$`));
  const shared = await page.request.get(link);
  expect(shared.headers()['content-type']).toBe('text/html; charset=utf-8');
  expect(await shared.text()).toContain(`<meta property="og:title" content="${title}" />`);
});

test('share uses the device share sheet when there is one', async ({ page }) => {
  await page.addInitScript(() => {
    Object.defineProperty(Navigator.prototype, 'share', {
      value: async (data: ShareData) => {
        (window as unknown as { shared: ShareData }).shared = data;
      },
    });
  });
  await page.route(`**${memePaths.list}*`, (route) =>
    route.fulfill({
      json: [fakeMeme(42, 'Shared meme')] satisfies Meme[],
    }),
  );
  await openGallery(page);
  await card(page, 'Shared meme').getByRole('button', { name: 'Share' }).click();
  await expect
    .poll(() => page.evaluate(() => (window as unknown as { shared?: ShareData }).shared))
    .toMatchObject({
      title: 'Shared meme',
      url: expect.stringMatching(/\/memes\/42$/),
    });
});

test('loading shows six skeletons; empty states name the filter; more pages load on request', async ({
  page,
}) => {
  let release: () => void = () => {};
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route(`**${memePaths.list}*`, async (route) => {
    const url = new URL(route.request().url());
    const category = url.searchParams.get('category');
    if (category === 'overtime') return route.fulfill({ json: [] });
    if (category) {
      return route.fulfill({
        json: [fakeMeme(1, 'Only one', 'success')],
      });
    }
    await held;
    if (url.searchParams.get('cursor') === '75') {
      return route.fulfill({ json: [fakeMeme(74, 'From page two')] });
    }
    const first = Array.from({ length: 24 }, (_, i) => fakeMeme(99 - i, `Page one #${i + 1}`));
    // The list contract (src/shared/api/memes.ts): the list itself; the next page's address in a Link header (RFC 8288).
    return route.fulfill({ json: first, headers: { link: '</api/memes?cursor=75>; rel="next"' } });
  });
  await openGallery(page);
  await expect(page.getByTestId('meme-skeleton')).toHaveCount(6);
  release();
  await expect(page.getByTestId('meme-card')).toHaveCount(24);
  await gallery(page).getByRole('button', { name: 'Load More' }).click();
  await expect(card(page, 'From page two')).toBeVisible();
  await expect(page.getByTestId('meme-card')).toHaveCount(25);
  await expect(gallery(page).getByRole('button', { name: 'Load More' })).toBeHidden();

  await gallery(page).getByRole('button', { name: 'Overtime' }).click();
  await expect(gallery(page).getByText('No memes found')).toBeVisible();
  await expect(gallery(page).getByText('No memes in the Overtime category yet.')).toBeVisible();

  await page.unroute(`**${memePaths.list}*`);
  await page.route(`**${memePaths.list}*`, (route) => route.fulfill({ json: [] }));
  await page.reload();
  await expect(gallery(page).getByText('No memes found')).toBeVisible();
  await expect(gallery(page).getByText('Be the first to upload a meme!')).toBeVisible();
});

test("every card shows its image in the same 4:3 box, whatever the image's shape @phone", async ({
  page,
}) => {
  const shapes = [
    [400, 300],
    [300, 300],
    [200, 400],
  ] as const;
  const memes = shapes.map(([width, height], i) => ({
    ...fakeMeme(i + 1, `Shape ${width}x${height}`),
    thumbnailUrl: `/objects/memes/${String(i + 1).repeat(64)}-thumb.webp`,
    thumbnailWidth: width,
    thumbnailHeight: height,
  }));
  await page.route(`**${memePaths.list}*`, (route) => route.fulfill({ json: memes }));
  await page.route('**/objects/memes/*-thumb.webp', async (route) => {
    const meme = memes.find((m) => route.request().url().endsWith(m.thumbnailUrl))!;
    const body = await sharp({
      create: {
        width: meme.thumbnailWidth,
        height: meme.thumbnailHeight,
        channels: 3,
        background: '#888',
      },
    })
      .webp()
      .toBuffer();
    return route.fulfill({ body, contentType: 'image/webp' });
  });
  await openGallery(page);
  await expect(page.getByTestId('meme-card')).toHaveCount(3);
  for (const meme of memes) {
    const image = card(page, meme.title).getByRole('img', { name: meme.title });
    await expect(image).toHaveJSProperty('complete', true);
    const box = (await card(page, meme.title).getByRole('link').boundingBox())!;
    expect(
      Math.abs(box.height - (box.width * 3) / 4),
      `${meme.title}: ${box.width}x${box.height}`,
    ).toBeLessThan(1.5);
    const shown = (await image.boundingBox())!;
    expect(shown.height).toBeLessThanOrEqual(box.height + 0.5);
  }
});

test('failures show the spec toasts', async ({ page }) => {
  await page.route(`**${memePaths.list}*`, (route) =>
    route.fulfill({ status: 500, json: { message: 'Internal Server Error' } }),
  );
  await openGallery(page);
  await expect(toastWith(page, 'Failed to fetch memes')).toBeVisible();
  await page.unroute(`**${memePaths.list}*`);

  await page.route(`**${memePaths.list}*`, (route) =>
    route.fulfill({ json: [fakeMeme(7, 'Unvotable')] }),
  );
  await page.route('**/api/memes/*/vote', (route) =>
    route.fulfill({ status: 429, json: { message: 'Too many votes. Please slow down.' } }),
  );
  await page.reload();
  await card(page, 'Unvotable')
    .getByRole('button', { name: /^Upvote/ })
    .click();
  await expect(toastWith(page, 'Failed to vote on meme')).toBeVisible();
  await expect(toastWith(page, 'Too many votes. Please slow down.')).toBeVisible();
});

test('a member sees upload refusals: too big, not an image, signed out, no object path', async ({
  page,
}) => {
  await signUpViaApi(page, uniqueUsername('refused'));
  await openGallery(page);

  await fileInput(page).setInputFiles({
    name: 'huge.png',
    mimeType: 'image/png',
    buffer: Buffer.alloc(5 * 1024 * 1024 + 1),
  });
  await expect(toastWith(page, 'Upload Failed')).toBeVisible();
  await expect(toastWith(page, 'huge.png exceeds the maximum size of 5 MB.')).toBeVisible();

  // HTML dressed as a PNG gets past the browser's look at the name; the server reads the bytes.
  await fileInput(page).setInputFiles({
    name: 'cat.png',
    mimeType: 'image/png',
    buffer: Buffer.from('<!doctype html><script>alert(1)</script>'),
  });
  await expect(toastWith(page, 'Failed to process uploaded image')).toBeVisible();
  await expect(toastWith(page, 'Only JPG, PNG and GIF images can be uploaded.')).toBeVisible();
  await expect(gallery(page).getByText('✓ Image ready')).toBeHidden();

  await page.route(`**${memePaths.memeImages}`, (route) => route.fulfill({ json: { ok: true } }));
  await fileInput(page).setInputFiles(await pngFile('no-path.png'));
  await expect(toastWith(page, 'No object path returned from server')).toBeVisible();
  await page.unroute(`**${memePaths.memeImages}`);

  await page.route(`**${memePaths.uploadTarget}`, (route) =>
    route.fulfill({ status: 500, json: { message: 'Storage is down' } }),
  );
  await fileInput(page).setInputFiles(await pngFile('down.png'));
  await expect(toastWith(page, 'Upload Error')).toBeVisible();
  await expect(toastWith(page, 'Storage is down')).toBeVisible();
  await page.unroute(`**${memePaths.uploadTarget}`);

  // The session ends in another tab.
  const csrf = (await (await page.request.get(authPaths.csrfToken)).json()) as {
    csrfToken: string;
  };
  await page.request.post(authPaths.logout, { headers: { 'x-csrf-token': csrf.csrfToken } });
  await fileInput(page).setInputFiles(await pngFile('late.png'));
  await expect(toastWith(page, 'Authentication Required')).toBeVisible();
  await expect(toastWith(page, 'Please log in to upload images')).toBeVisible();
  await expect(gallery(page).getByRole('button', { name: 'Login to Upload' })).toBeVisible();
  if (isPhone(page)) await page.screenshot({ path: '/tmp/gallery-refusal-phone.png' });
});

test('the upload helper renews an expired URL and retries a server error', async ({ page }) => {
  await signUpViaApi(page, uniqueUsername('retry'));
  await openGallery(page);
  const seen: string[] = [];
  await page.route(`**${objectPaths.localUploadPrefix}**`, async (route) => {
    seen.push(new URL(route.request().url()).pathname);
    if (seen.length === 1) {
      return route.fulfill({
        status: 403,
        json: { message: 'Request has expired', code: 'UPLOAD_EXPIRED' },
      });
    }
    if (seen.length === 2) return route.fulfill({ status: 503, body: 'busy' });
    return route.continue();
  });
  await fileInput(page).setInputFiles(await pngFile('retried.png'));
  await expect(toastWith(page, 'Upload Complete')).toBeVisible();
  await expect(gallery(page).getByText('✓ Image ready')).toBeVisible();
  expect(seen).toHaveLength(3);
  // A fresh URL after the expiry; the same one again after the 503.
  expect(seen[1]).not.toBe(seen[0]);
  expect(seen[2]).toBe(seen[1]);
});
