import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { signUpViaApi, uniqueUsername } from './support';

// axe-core over whole pages, at both sizes. The home page is scrolled through first so the
// gallery, the game and the leaderboard (which load as they come near) are checked too.

test.beforeEach(async ({ page }) => {
  await page.route('https://dexscreener.com/**', (route) =>
    route.fulfill({
      contentType: 'text/html',
      body: '<!doctype html><html lang="en"><title>Chart</title><main><p>chart</p></main></html>',
    }),
  );
});

async function seriousViolations(page: Page) {
  const results = await new AxeBuilder({ page })
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'])
    .analyze();
  return results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => ({
      id: v.id,
      impact: v.impact,
      help: v.help,
      targets: v.nodes.slice(0, 5).map((n) => n.target.join(' ')),
    }));
}

test('the home page has no serious or critical accessibility violations @phone', async ({
  page,
}) => {
  await page.goto('/');
  for (const id of ['gallery', 'game']) {
    await page.locator(`#${id}`).scrollIntoViewIfNeeded();
    await expect(page.locator(`#${id}`)).not.toHaveAttribute('data-deferred', 'pending');
  }
  await expect(page.getByRole('heading', { name: 'Weekly Leaderboard' })).toBeVisible();
  await expect(page.getByText('No winners yet!')).toBeVisible();
  await page.waitForLoadState('networkidle');
  expect(await seriousViolations(page)).toEqual([]);
});

test('the shop has no serious or critical accessibility violations, signed out or in @phone', async ({
  page,
}) => {
  await page.goto('/shop');
  await expect(page.getByText('Please log in to access the character shop')).toBeVisible();
  await page.waitForLoadState('networkidle');
  expect(await seriousViolations(page)).toEqual([]);

  await signUpViaApi(page, uniqueUsername('axe'));
  await page.reload();
  // The signed-in shop is lazily loaded code: 30 s, as every such wait on a loaded machine.
  await expect(page.getByText('Office Worker')).toBeVisible({ timeout: 30_000 });
  await page.waitForLoadState('networkidle');
  expect(await seriousViolations(page)).toEqual([]);
});
