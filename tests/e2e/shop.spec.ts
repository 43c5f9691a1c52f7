import { expect, test, type Page } from '@playwright/test';
import { signUpViaApi, toastWith, uniqueUsername } from './support.ts';
import { authPaths, shopPaths, pathTo } from '#shared/api/paths.ts';
import { runAdminCli } from '#test-support/admin-cli.ts';

/** Grants coins the way an operator does: the admin CLI against the E2E server's data folder. */
async function grantCoins(username: string, amount: number): Promise<void> {
  const { code, stdout, stderr } = await runAdminCli(
    { DATA_DIR: process.env.E2E_DATA_DIR },
    'coins:grant',
    username,
    String(amount),
    '--reason',
    'E2E shop test',
  );
  if (code !== 0) throw new Error(`coins:grant failed (${code}): ${stderr}`);
  if (!stdout.startsWith(`Granted ${amount} coins to ${username}`)) throw new Error(stdout);
}

/** A mutating call from the page's own cookie jar, as another tab of the same member would make. */
async function postAsMember(page: Page, url: string) {
  const { csrfToken } = (await (await page.request.get(authPaths.csrfToken)).json()) as {
    csrfToken: string;
  };
  return page.request.post(url, { headers: { 'x-csrf-token': csrfToken } });
}

const card = (page: Page, key: string) => page.getByTestId(`character-card-${key}`);
const balance = (page: Page) => page.getByTestId('coin-balance');

/** True when the canvas has any painted pixel: the preview really drew the character. */
function canvasIsPainted(page: Page, key: string) {
  return card(page, key)
    .locator('canvas')
    .evaluate((canvas: HTMLCanvasElement) => {
      const ctx = canvas.getContext('2d');
      if (!ctx || canvas.width === 0) return false;
      const { data } = ctx.getImageData(0, 0, canvas.width, canvas.height);
      for (let i = 3; i < data.length; i += 4) if (data[i]! > 0) return true;
      return false;
    });
}

test('a visitor is asked to log in and can return home', async ({ page }) => {
  await page.goto('/shop');
  const main = page.getByRole('main');
  await expect(main.getByText('Please log in to access the character shop')).toBeVisible();
  await expect(main.getByTestId('coin-balance')).toHaveCount(0);
  await main.getByRole('link', { name: 'Return to Home' }).click();
  await expect(page).toHaveURL(/\/$/);
});

test("logging out in the shop shows the visitor's shop at once", async ({ page }) => {
  await page.goto('/');
  await signUpViaApi(page, uniqueUsername('Leaver'));
  await page.goto('/shop');
  await expect(balance(page)).toHaveText('0 coins');
  await page.getByRole('button', { name: 'Account menu' }).click();
  await page.getByRole('menuitem', { name: 'Logout' }).click();
  await expect(toastWith(page, 'You have been successfully logged out.')).toBeVisible();
  const main = page.getByRole('main');
  await expect(main.getByText('Please log in to access the character shop')).toBeVisible();
  await expect(balance(page)).toHaveCount(0);
  await expect(main.locator('[data-testid^="character-card-"]')).toHaveCount(0);
});

test('a member with granted coins buys and selects a character, and the game flies it', async ({
  page,
}, info) => {
  const name = uniqueUsername('Shopper');
  await page.goto('/');
  await signUpViaApi(page, name);
  await grantCoins(name, 400);

  await page.goto('/shop');
  const main = page.getByRole('main');
  await expect(main.getByRole('heading', { name: 'Character Shop' })).toBeVisible();
  await expect(balance(page)).toHaveText('400 coins');
  // The specification's eleven, and apart from them the Holders row, closed to a non-holder.
  const catalogue = main.getByTestId('catalogue');
  await expect(catalogue.locator('[data-testid^="character-card-"]')).toHaveCount(11);
  const holders = main.getByTestId('holders-row');
  await expect(holders.locator('[data-testid^="character-card-"]')).toHaveCount(2);
  await expect(
    card(page, 'diamond-hands').getByRole('button', { name: 'Holders only' }),
  ).toBeDisabled();

  // The default worker is owned and selected from the start.
  await expect(card(page, 'default').getByText('Selected', { exact: true }).first()).toBeVisible();
  await expect(card(page, 'default').getByRole('button', { name: 'Selected' })).toBeDisabled();
  await expect(card(page, 'default').getByText('Free')).toBeVisible();
  // Prices, and what the balance cannot cover yet.
  await expect(card(page, 'suit').getByText('200 coins')).toBeVisible();
  await expect(card(page, 'suit').getByRole('button', { name: 'Purchase' })).toBeEnabled();
  await expect(
    card(page, 'police').getByRole('button', { name: 'Need 100 more coins' }),
  ).toBeDisabled();
  // Pudge is legendary: its own badge and golden card.
  await expect(card(page, 'pudge').getByText('Legendary')).toBeVisible();
  await expect(card(page, 'pudge').getByText('2,000 coins')).toBeVisible();
  await expect(
    card(page, 'pudge').getByRole('button', { name: 'Need 1600 more coins' }),
  ).toBeDisabled();
  // Every preview is drawn on its canvas.
  for (const key of ['default', 'suit', 'pudge'])
    expect(await canvasIsPainted(page, key)).toBe(true);

  await page.screenshot({ path: info.outputPath('shop-before.png'), fullPage: true });

  // Buy the Executive: balance and cards change at once from the answer.
  await card(page, 'suit').getByRole('button', { name: 'Purchase' }).click();
  await expect(toastWith(page, 'Character Purchased!')).toBeVisible();
  await expect(balance(page)).toHaveText('200 coins');
  await expect(card(page, 'suit').getByText('Owned', { exact: true })).toBeVisible();
  await expect(card(page, 'suit').getByRole('button', { name: 'Select' })).toBeEnabled();
  await expect(
    card(page, 'chef').getByRole('button', { name: 'Need 200 more coins' }),
  ).toBeDisabled();

  await card(page, 'suit').getByRole('button', { name: 'Select' }).click();
  await expect(toastWith(page, 'Character Selected!')).toBeVisible();
  await expect(card(page, 'suit').getByRole('button', { name: 'Selected' })).toBeDisabled();
  await expect(card(page, 'suit').getByText('Selected', { exact: true }).first()).toBeVisible();
  await expect(card(page, 'default').getByText('Owned', { exact: true })).toBeVisible();
  await expect(card(page, 'default').getByRole('button', { name: 'Select' })).toBeEnabled();

  await page.screenshot({ path: info.outputPath('shop-after.png'), fullPage: true });
  await page.screenshot({ path: info.outputPath('shop-after-viewport.png') });

  // It is all on the server: a reload shows the same.
  await page.reload();
  await expect(balance(page)).toHaveText('200 coins');
  await expect(card(page, 'suit')).toHaveAttribute('data-selected', 'true');
  await expect(card(page, 'hardhat')).toHaveAttribute('data-owned', 'false');

  // To the game: it reads the selected character from the profile when a round starts.
  await main.getByRole('link', { name: 'Play Game to Earn Coins' }).click();
  await expect(page).toHaveURL(/\/#game$/);
  const game = page.locator('#game');
  await expect(game).toBeInViewport();
  // The worker on the game's canvas wears the Executive's face, not the Office Worker's.
  const skins = () =>
    game.locator('canvas').evaluate((canvas: HTMLCanvasElement) => {
      const { data } = canvas.getContext('2d')!.getImageData(0, 0, canvas.width, canvas.height);
      const count = { suit: 0, default: 0 };
      for (let i = 0; i < data.length; i += 4) {
        const rgb = (data[i]! << 16) | (data[i + 1]! << 8) | data[i + 2]!;
        if (rgb === 0xe8b894) count.suit += 1;
        else if (rgb === 0xf6d2b3) count.default += 1;
      }
      return count;
    });
  const profileRead = page.waitForResponse(
    (res) => res.url().endsWith(shopPaths.profile) && res.request().method() === 'GET',
  );
  await game.getByRole('button', { name: 'Start Game' }).click();
  const profile = (await (await profileRead).json()) as { selectedCharacterKey: string };
  expect(profile.selectedCharacterKey).toBe('suit');
  await expect.poll(async () => (await skins()).suit, { timeout: 5000 }).toBeGreaterThan(20);
  expect((await skins()).default).toBe(0);
});

test('purchase and selection failures show their toasts and the page recovers', async ({
  page,
}) => {
  const name = uniqueUsername('Racer');
  await page.goto('/');
  await signUpViaApi(page, name);
  await grantCoins(name, 60);
  await page.goto('/shop');
  await expect(balance(page)).toHaveText('60 coins');

  // Another tab buys the same character first: this one is told why, then shows the truth.
  expect((await postAsMember(page, pathTo(shopPaths.purchase, { key: 'hardhat' }))).status()).toBe(
    200,
  );
  await card(page, 'hardhat').getByRole('button', { name: 'Purchase' }).click();
  await expect(toastWith(page, 'Purchase Failed')).toBeVisible();
  await expect(toastWith(page, 'You already own Construction Worker')).toBeVisible();
  await expect(balance(page)).toHaveText('10 coins');
  await expect(card(page, 'hardhat').getByRole('button', { name: 'Select' })).toBeEnabled();

  // The session ends elsewhere: the next action asks to log in and the page follows.
  expect((await postAsMember(page, authPaths.logout)).status()).toBe(200);
  await card(page, 'hardhat').getByRole('button', { name: 'Select' }).click();
  await expect(toastWith(page, 'Login Required')).toBeVisible();
  await expect(toastWith(page, 'Please log in to select characters.')).toBeVisible();
  await expect(
    page.getByRole('main').getByText('Please log in to access the character shop'),
  ).toBeVisible();
});

test('a failed read of the profile or the collection is reported', async ({ page }) => {
  const name = uniqueUsername('Offline');
  await page.goto('/');
  await signUpViaApi(page, name);

  await page.route(`**${shopPaths.profile}`, (route) =>
    route.fulfill({ status: 503, body: 'down' }),
  );
  await page.goto('/shop');
  await expect(
    toastWith(page, 'Failed to load profile data. Please refresh the page.'),
  ).toBeVisible();
  await expect(balance(page)).toHaveText('— coins');
  await page.unroute(`**${shopPaths.profile}`);

  await page.route(`**${shopPaths.characters}`, (route) =>
    route.fulfill({ status: 503, body: 'down' }),
  );
  await page.reload();
  await expect(
    toastWith(page, 'Failed to load owned characters. Some features may not work correctly.'),
  ).toBeVisible();
  // The shop still works with what it knows: the balance and the default character.
  await expect(balance(page)).toHaveText('0 coins');
  await expect(card(page, 'default').getByRole('button', { name: 'Selected' })).toBeDisabled();
});
