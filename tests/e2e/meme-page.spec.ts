import { expect, test } from '@playwright/test';
import sharp from 'sharp';
import type { Meme } from '../../src/shared/api/memes.ts';
import {
  freshPicture,
  postMemeViaApi as postMeme,
  signUpViaApi,
  toastWith,
  uniqueUsername,
} from './support.ts';
import { memePaths } from '#shared/api/paths.ts';

test('a shared meme opens on its own page, with card tags a preview bot reads', async ({
  page,
  context,
}, testInfo) => {
  await signUpViaApi(page, uniqueUsername('sharer'));
  const title = `Permalink <${testInfo.project.name}> ${Date.now().toString(36)}`;
  const picture = await freshPicture();
  const posted = await postMeme(page, title, picture);
  expect(posted.status()).toBe(201);
  const { meme } = (await posted.json()) as { meme: Meme };

  // A preview bot: plain HTML, no script, no cookies.
  const bot = await page.request.fetch(`/memes/${meme.id}`, {
    headers: { 'user-agent': 'Twitterbot/1.0', cookie: '' },
  });
  expect(bot.status()).toBe(200);
  const html = await bot.text();
  const escaped = title.replace('<', '&lt;').replace('>', '&gt;');
  const origin = new URL(bot.url()).origin;
  expect(html).toContain(`<meta property="og:title" content="${escaped}" />`);
  expect(html).toContain(`<meta property="og:url" content="${origin}/memes/${meme.id}" />`);
  expect(html).toContain(`<meta property="og:image" content="${origin}${meme.imageUrl}" />`);
  expect(html).toContain('<meta property="og:image:width" content="640" />');
  expect(html).toContain('<meta property="og:image:height" content="480" />');
  expect(html).toContain('<meta name="twitter:card" content="summary_large_image" />');

  // The same picture resized is refused, with a link to the meme already there.
  const resized = await sharp(picture).resize(320, 240).jpeg({ quality: 60 }).toBuffer();
  const repost = await postMeme(page, 'Repost', resized);
  expect(repost.status()).toBe(409);
  expect(await repost.json()).toMatchObject({
    message: `This meme is already in the gallery: /memes/${meme.id}`,
  });

  // A person: the page shows the meme large, with its actions and a way back.
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await page.addInitScript(() =>
    Object.defineProperty(Navigator.prototype, 'share', { value: undefined }),
  );
  await page.goto(`/memes/${meme.id}`);
  await expect(page.getByRole('heading', { level: 1, name: title })).toBeVisible();
  await expect(page.getByRole('img', { name: title })).toBeVisible();
  await expect(page.getByText('Overtime', { exact: true })).toBeVisible();
  await expect(page).toHaveTitle(`${title} - Daily Grind memes`);
  await page.getByRole('button', { name: /^Upvote/ }).click();
  await expect(page.getByTestId('upvotes')).toHaveText('1');
  await page.getByRole('button', { name: 'Share' }).click();
  await expect(toastWith(page, 'Link copied to clipboard!')).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(
    `${origin}/memes/${meme.id}`,
  );
  await page.screenshot({ path: `/tmp/meme-page-${testInfo.project.name}.png`, fullPage: true });

  await page.getByRole('link', { name: 'See more memes' }).click();
  await expect(page.getByRole('heading', { name: 'Community Meme Gallery' })).toBeVisible();
});

test('three reports hide a meme: its page becomes the 404 page, without its tags', async ({
  page,
  browser,
}, testInfo) => {
  await signUpViaApi(page, uniqueUsername('reported'));
  const title = `Reported ${testInfo.project.name} ${Date.now().toString(36)}`;
  const { meme } = (await (await postMeme(page, title)).json()) as { meme: Meme };

  // Three visitors, each from their own address, report it through the dialog.
  for (let i = 0; i < 3; i++) {
    const visitor = await browser.newContext({
      ...testInfo.project.use,
      extraHTTPHeaders: { 'x-forwarded-for': `198.51.${process.pid % 250}.${i + 1}` },
    });
    const tab = await visitor.newPage();
    await tab.goto(`/memes/${meme.id}`);
    await tab.getByRole('button', { name: 'Report' }).click();
    const dialog = tab.getByRole('dialog', { name: 'Report this meme' });
    await expect(dialog.getByRole('button', { name: 'Send report' })).toBeDisabled();
    await dialog.getByLabel('Spam or advertising').check();
    if (i === 0) {
      await tab.screenshot({ path: `/tmp/meme-report-${testInfo.project.name}.png` });
    }
    await dialog.getByRole('button', { name: 'Send report' }).click();
    await expect(toastWith(tab, 'Thanks, the moderators will take a look.')).toBeVisible();
    await visitor.close();
  }

  const gone = await page.request.get(`/memes/${meme.id}`);
  expect(gone.status()).toBe(404);
  expect(await gone.text()).not.toContain(title);
  await page.goto(`/memes/${meme.id}`);
  await expect(page.getByRole('heading', { name: '404 Page Not Found' })).toBeVisible();
});

test('the gallery sorts by New, Top of the week and Hot, each with the category filter', async ({
  page,
}, testInfo) => {
  await page.goto('/#gallery');
  const gallery = page.locator('#gallery');
  // The gallery hydrates after the first paint (decision 017): on a busy machine that can take
  // longer than the default 10 s.
  await expect(gallery.getByRole('heading', { name: 'Community Meme Gallery' })).toBeVisible({
    timeout: 30_000,
  });
  const sorts = gallery.getByRole('group', { name: 'Sort memes' });
  await expect(sorts.getByRole('button')).toHaveText(['New', 'Top of the week', 'Hot']);
  await expect(sorts.getByRole('button', { name: 'New' })).toHaveAttribute('aria-pressed', 'true');

  for (const [label, sort] of [
    ['Top of the week', 'top'],
    ['Hot', 'hot'],
  ] as const) {
    const answer = page.waitForResponse(
      (res) => res.url().includes(`${memePaths.list}?`) && res.url().includes(`sort=${sort}`),
    );
    await sorts.getByRole('button', { name: label }).click();
    const res = await answer;
    expect(res.status()).toBe(200);
    expect(Array.isArray(await res.json())).toBe(true);
    await expect(sorts.getByRole('button', { name: label })).toHaveAttribute(
      'aria-pressed',
      'true',
    );
    // With a category too: the first page's address carries both.
    const filtered = page.waitForResponse(
      (r) => r.url().includes(`sort=${sort}`) && r.url().includes('category=overtime'),
    );
    await gallery.getByRole('button', { name: 'Overtime' }).click();
    expect((await filtered).status()).toBe(200);
    await gallery.getByRole('button', { name: 'All' }).click();
  }
  await gallery.screenshot({ path: `/tmp/gallery-sorts-${testInfo.project.name}.png` });
});
