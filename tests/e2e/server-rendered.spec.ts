import { expect, test, type Page } from '@playwright/test';
import { LANDING_SECTION_IDS } from './support';

// The pages arrive as HTML (issue 24): a crawler, a link preview or a reader without JavaScript
// gets every landing text, and the browser takes the HTML over without a hydration mismatch.

const ADDRESS = '35vnoPAFp4nYp4HdS86YKCTP3ft2KGyPhNiqWBv6TWtj';

/** Every text of the landing page the spec quotes or fixes (sections 2 and 9), as the HTML has it. */
const LANDING_TEXTS = [
  // Navigation bar and hero.
  'Daily Grind',
  'Celebrating the Daily Grind',
  '$GRIND',
  'is a community token on Solana',
  'Learn More',
  'Buy Now',
  'Login',
  'Sign Up',
  'Launch: <time dateTime="2025-09-30T11:00:00Z">30 Sept 2025, 9:00 pm AEST (Sydney time)</time>',
  'The wait is over! Start trading and join the community of hard workers.',
  // Tokenomics with its figures.
  'Tokenomics',
  'Total Supply',
  '1,000,000,000',
  'Locked 2 years',
  'Weekly',
  'Community Pool',
  '70<!-- -->%',
  'Weekly Giveaways',
  '20<!-- -->%',
  'Development',
  '10<!-- -->%',
  // Chart: the address and its links.
  ADDRESS,
  `href="https://dexscreener.com/solana/${ADDRESS}"`,
  `href="https://solscan.io/token/${ADDRESS}"`,
  // Roadmap: ten steps.
  'Roadmap',
  ...['Coin Idea', 'Socials', 'Website', 'Mascot', 'Launch Coin', '50K Market Cap'],
  ...['Buy on a DEX', '200K Market Cap', 'First Giveaway', 'Keep Growing'],
  // Social cards.
  'X (Twitter)',
  'href="https://x.com/dailygrindsol"',
  'Telegram',
  'href="https://t.me/dailygrindsol"',
  'Discord',
  'href="https://discord.gg/dailygrind"',
  'Join All Platforms',
  'Share with Friends',
  // Giveaway.
  'Weekly Giveaway',
  'Sunday, 8:00 PM E',
  '(New York time)',
  `href="https://pump.fun/coin/${ADDRESS}"`,
  'Token Burn',
  'Circulating Supply',
  '1000M',
  'Last Burn',
  'Total Burned',
  'How to participate',
  'Hold the token',
  'Join the livestream',
  'Win prizes',
  'Recent Winners',
  // The parts that need JavaScript say so.
  'Community Meme Gallery',
  'The meme gallery needs JavaScript',
  'Office Escape',
  'The game needs JavaScript',
  // Footer.
  'Quick Links',
  '35vnoPAF...WBv6TWtj',
  'Memes, not financial advice.',
];

test('a plain HTTP GET of / has every landing text, and no script but the page bundle', async ({
  request,
}) => {
  const res = await request.get('/');
  expect(res.status()).toBe(200);
  expect(res.headers()['content-type']).toBe('text/html; charset=utf-8');
  expect(res.headers()['content-security-policy']).toContain("script-src 'self'");
  const html = await res.text();
  const missing = LANDING_TEXTS.filter((text) => !html.includes(text));
  expect(missing).toEqual([]);
  // In the spec's order, with their anchors.
  const ids = [...html.matchAll(/<(?:section|footer) [^>]*\bid="([a-z]+)"/g)].map((m) => m[1]);
  expect(ids).toEqual(LANDING_SECTION_IDS);
  // The CSP allows no inline script, so none may be needed to put the page together.
  const scripts = [...html.matchAll(/<script\b([^>]*)>/g)].map((m) => m[1]!);
  expect(scripts.filter((attrs) => !/type="(module|application\/json)"/.test(attrs))).toEqual([]);
});

test('the page is painted before the app is fetched, and a click before the app is carried out @phone', async ({
  page,
}) => {
  // The app's code arrives only when the test lets it: a slow network, made certain.
  let letAppThrough!: () => void;
  const appHeld = new Promise<void>((resolve) => (letAppThrough = resolve));
  let paintedBeforeFetch: boolean | undefined;
  await page.route(/\/assets\/app-[\w-]+\.js$/, async (route) => {
    paintedBeforeFetch = await page.evaluate(
      () => performance.getEntriesByName('first-contentful-paint').length > 0,
    );
    await appHeld;
    await route.continue();
  });
  await page.goto('/', { waitUntil: 'domcontentloaded' });
  await expect.poll(() => paintedBeforeFetch).toBe(true);
  const tokenomicsTop = () =>
    page.locator('#tokenomics').evaluate((section) => section.getBoundingClientRect().top);
  // Nobody listens yet: the click is held, and the page stays where it is.
  await page.getByRole('button', { name: 'Learn More' }).click();
  expect(await tokenomicsTop()).toBeGreaterThan(400);
  letAppThrough();
  // Carried out once the app has the page: "Learn More" scrolls to the tokenomics.
  await expect.poll(tokenomicsTop).toBeLessThan(100);
});

test('/shop and an unknown path arrive rendered, with their statuses', async ({ request }) => {
  const shop = await request.get('/shop');
  expect(shop.status()).toBe(200);
  const shopHtml = await shop.text();
  expect(shopHtml).toContain('Back to Game');
  expect(shopHtml).toContain('The character shop needs JavaScript');
  const missing = await request.get('/no-such-page');
  expect(missing.status()).toBe(404);
  expect(await missing.text()).toContain('404 Page Not Found');
});

/** Console errors and warnings from the moment the page starts loading. */
function consoleProblems(page: Page): string[] {
  const problems: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error' || message.type() === 'warning') {
      problems.push(`${message.type()}: ${message.text()}`);
    }
  });
  page.on('pageerror', (error) => problems.push(`pageerror: ${error.message}`));
  return problems;
}

for (const path of ['/', '/shop', '/no-such-page']) {
  test(`${path} is taken over without a hydration error or warning @phone`, async ({ page }) => {
    await page.route('https://dexscreener.com/**', (route) =>
      route.fulfill({ contentType: 'text/html', body: '<!doctype html><title>chart</title>' }),
    );
    const problems = consoleProblems(page);
    await page.goto(path);
    // Hydrated: the header's Login button opens the dialog.
    await page.getByRole('button', { name: 'Login' }).click();
    await expect(page.getByRole('dialog')).toBeVisible();
    await page.keyboard.press('Escape');
    if (path === '/') {
      // Every section below the hero comes alive too, as the page scrolls past it.
      for (const id of ['tokenomics', 'chart', 'roadmap', 'community', 'giveaway', 'contact']) {
        await page.locator(`#${id}`).scrollIntoViewIfNeeded();
      }
      await expect(page.getByTestId('giveaway-countdown').locator('[data-unit="days"]')).toHaveText(
        /^\d\d$/,
      );
      await expect(page.locator('#contact').getByRole('button', { name: /Copy/ })).toBeVisible();
    }
    await page.waitForLoadState('networkidle');
    // Chromium reports the 404 page's own status as a failed resource; nothing else may show.
    const expected = path === '/no-such-page' ? /Failed to load resource: .* 404/ : /^$/;
    expect(problems.filter((p) => !expected.test(p))).toEqual([]);
  });
}
