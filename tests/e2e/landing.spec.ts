import { expect, test, type Locator, type Page } from '@playwright/test';
import { countdownParts, formatWeekdayTime, nextWeeklyOccurrence } from '#shared/time.ts';
import {
  browserIdle,
  isPhone,
  LANDING_SECTION_IDS,
  scrollStopped,
  serverOfItsOwn,
  toastWith,
} from './support';

/** The gallery and the game are lazily loaded code: 30 s, as every such wait on a loaded machine. */
const LAZY_SECTION_MS = 30_000;

// The home page as a visitor sees it, at both sizes. The chart frame's host is fulfilled
// locally; the clipboard is the browser's own (permission granted) unless a test breaks it.

const ADDRESS = '35vnoPAFp4nYp4HdS86YKCTP3ft2KGyPhNiqWBv6TWtj';
const EMBED = `https://dexscreener.com/solana/${ADDRESS}?embed=1&theme=dark&trades=0&info=0`;
const LAUNCHED = 'The wait is over! Start trading and join the community of hard workers.';
const NO_WINNERS = 'No winners yet! Be the first to join our weekly giveaway livestream.';
const SOCIAL = {
  x: ['X (Twitter)', 'https://x.com/dailygrindsol'],
  telegram: ['Telegram', 'https://t.me/dailygrindsol'],
  discord: ['Discord', 'https://discord.gg/dailygrind'],
  dexscreener: ['DexScreener', `https://dexscreener.com/solana/${ADDRESS}`],
} as const;
const SOCIAL_TEXT = Object.values(SOCIAL)
  .map(([name, url]) => `${name}: ${url}`)
  .join('\n');
const GIVEAWAY = { weekday: 0, hour: 20, minute: 0, timeZone: 'America/New_York' };

test.beforeEach(async ({ page, context }) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await page.route('https://dexscreener.com/**', (route) =>
    route.fulfill({
      contentType: 'text/html',
      body: '<!doctype html><title>chart</title><p id="stub">chart stub</p>',
    }),
  );
});

const section = (page: Page, id: string) => page.locator(`#${id}`);

/** Opens the home page at a section's anchor; returns the section. */
async function openSection(page: Page, id: string) {
  await page.goto(`/#${id}`);
  return section(page, id);
}

async function clipboard(page: Page): Promise<string> {
  return page.evaluate(() => navigator.clipboard.readText());
}

async function inViewport(locator: Locator): Promise<boolean> {
  return locator.evaluate((el) => {
    const { top, bottom } = el.getBoundingClientRect();
    return top < window.innerHeight && bottom > 0 && Math.abs(top) < window.innerHeight;
  });
}

/** Seconds left on a countdown, read from its four two-digit boxes. */
async function countdownSeconds(timer: Locator): Promise<number> {
  const text = await timer.locator('[data-unit]').allTextContents();
  expect(text).toHaveLength(4);
  for (const unit of text) expect(unit).toMatch(/^\d{2}$/);
  const [d, h, m, s] = text.map(Number) as [number, number, number, number];
  return ((d * 24 + h) * 60 + m) * 60 + s;
}

function expectedGiveawaySeconds(nowMs: number): number {
  const parts = countdownParts(nextWeeklyOccurrence(nowMs, GIVEAWAY), nowMs);
  return ((parts.days * 24 + parts.hours) * 60 + parts.minutes) * 60 + parts.seconds;
}

test('the sections come in the spec order with their anchors', async ({ page }) => {
  await page.goto('/');
  await expect(section(page, 'contact')).toBeAttached();
  await expect(section(page, 'game')).toBeAttached();
  const ids = await page.evaluate(() =>
    [...document.querySelectorAll('main > [id], footer[id]')].map((el) => el.id),
  );
  expect(ids).toEqual(LANDING_SECTION_IDS);
});

test('hero: title, ticker, description, launch countdown in Sydney time, and the two buttons @phone', async ({
  page,
}) => {
  await page.goto('/');
  const hero = section(page, 'home');
  await expect(hero.getByRole('heading', { level: 1, name: 'Daily Grind' })).toBeVisible();
  await expect(hero.getByTestId('hero-ticker')).toHaveText('$GRIND');
  await expect(hero.getByText('Celebrating the Daily Grind')).toBeVisible();
  await expect(hero.getByText(/is a community token on Solana/)).toBeVisible();
  // 2025-09-30 11:00 UTC is 9 pm in Sydney, before daylight saving starts there.
  await expect(hero.getByTestId('launch-time')).toHaveText(
    'Launch: 30 Sept 2025, 9:00 pm AEST (Sydney time)',
  );
  // The default launch has passed: zeros and the live message.
  await expect(hero.getByTestId('launch-countdown').locator('[data-unit]')).toHaveText([
    '00',
    '00',
    '00',
    '00',
  ]);
  await expect(hero.getByText(LAUNCHED)).toBeVisible();

  const buy = hero.getByRole('link', { name: 'Buy Now' });
  await expect(buy).toHaveAttribute('href', `https://jup.ag/swap/SOL-${ADDRESS}`);
  await expect(buy).toHaveAttribute('target', '_blank');
  await expect(buy).toHaveAttribute('rel', 'noopener noreferrer');

  const mascot = page.getByTestId('hero-mascot');
  if (isPhone(page)) {
    await expect(mascot).toBeHidden();
    // Never downloaded: the <picture> offers it to large screens only.
    expect(await mascot.evaluate((img: HTMLImageElement) => img.currentSrc)).toMatch(/^data:/);
  } else {
    await expect(mascot).toBeVisible();
    await expect
      .poll(() => mascot.evaluate((img: HTMLImageElement) => new URL(img.currentSrc).pathname))
      .toBe('/mascot.svg');
    await expect(mascot).toHaveAttribute('width', '400');
    await expect(mascot).toHaveAttribute('height', '440');
    await expect(mascot).toHaveAttribute('alt', /Pudge/);
    expect(await mascot.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(0);
  }

  await hero.getByRole('button', { name: 'Learn More' }).click();
  await expect.poll(() => inViewport(section(page, 'tokenomics'))).toBe(true);
  await expect(page).toHaveURL(/#tokenomics$/);
});

test.describe('before the launch, with no address yet', () => {
  const site = serverOfItsOwn({
    launchAt: new Date(Date.now() + 3 * 86_400_000 + 5 * 3_600_000).toISOString(),
    contractAddress: '',
  });

  test('a launch still ahead counts down every second in two-digit units', async ({ page }) => {
    await page.goto(`${site.origin()}/`);
    const timer = page.getByTestId('launch-countdown');
    await expect(timer.locator('[data-unit="days"]')).toHaveText('03');
    await expect(timer.locator('[data-unit="hours"]')).toHaveText(/^0[45]$/);
    const first = await countdownSeconds(timer);
    await expect.poll(() => countdownSeconds(timer), { timeout: 5_000 }).toBeLessThan(first);
    await expect(page.getByText(LAUNCHED)).toHaveCount(0);
    await expect(page.getByRole('heading', { name: 'Launch countdown' })).toBeVisible();
  });

  test('pre-launch: an empty address shows "coming soon" instead of the chart and copy buttons', async ({
    page,
  }) => {
    await page.goto(`${site.origin()}/#chart`);
    const chart = section(page, 'chart');
    await expect(chart.getByTestId('contract-address')).toHaveText('Contract address coming soon');
    await expect(chart.getByTestId('chart-coming-soon')).toContainText('Chart coming soon');
    await expect(chart.locator('iframe')).toHaveCount(0);
    await expect(page.getByRole('button', { name: /Copy contract address/ })).toHaveCount(0);
    await expect(page.getByTestId('footer-address')).toHaveText('Contract address coming soon');
    await expect(section(page, 'home').getByText('Launching soon on Solana')).toBeVisible();
  });
});

test('tokenomics: supply, locks, burns and the 70/20/10 distribution in words', async ({
  page,
}) => {
  const tokenomics = await openSection(page, 'tokenomics');
  await expect(tokenomics.getByRole('heading', { name: 'Tokenomics' })).toBeVisible();
  await expect(tokenomics.getByText('1,000,000,000', { exact: true })).toBeVisible();
  await expect(tokenomics.getByText('$GRIND tokens, supply locked')).toBeVisible();
  await expect(tokenomics.getByText('Locked 2 years')).toBeVisible();
  await expect(tokenomics.getByText('Weekly', { exact: true })).toBeVisible();
  await expect(
    tokenomics.getByRole('img', {
      name: 'Token distribution: Community Pool 70%, Weekly Giveaways 20%, Development 10%',
    }),
  ).toBeVisible();
  const table = tokenomics.getByRole('table', { name: /Token distribution/ });
  await expect(table.getByRole('row')).toHaveCount(4);
  const slices: Array<[string, string]> = [
    ['Community Pool', '70%'],
    ['Weekly Giveaways', '20%'],
    ['Development', '10%'],
  ];
  for (const [label, percent] of slices) {
    const row = table.getByRole('row', { name: new RegExp(label) });
    await expect(row.getByRole('rowheader')).toHaveText(label);
    await expect(row.getByRole('cell').first()).toHaveText(percent);
  }
});

test('chart: the address copies with "Copied!" for two seconds, and the frame is lazy', async ({
  page,
}) => {
  // The page's own clock, so the two seconds are the page's, however busy the machine.
  await page.clock.install();
  const chart = await openSection(page, 'chart');
  await expect(chart.getByTestId('contract-address')).toHaveText(ADDRESS);

  const dex = chart.getByRole('link', { name: /DexScreener/ });
  await expect(dex).toHaveAttribute('href', `https://dexscreener.com/solana/${ADDRESS}`);
  await expect(dex).toHaveAttribute('target', '_blank');
  await expect(dex).toHaveAttribute('rel', 'noopener noreferrer');
  const solscan = chart.getByRole('link', { name: /Solscan/ });
  await expect(solscan).toHaveAttribute('href', `https://solscan.io/token/${ADDRESS}`);
  await expect(solscan).toHaveAttribute('rel', 'noopener noreferrer');

  const copy = chart.getByRole('button', { name: 'Copy contract address' });
  await page.clock.pauseAt((await page.evaluate(() => Date.now())) + 1_000);
  await copy.click();
  const copied = chart.getByRole('button', { name: 'Copied!' });
  await expect(copied).toBeVisible();
  expect(await clipboard(page)).toBe(ADDRESS);
  await page.clock.runFor(1_900);
  await expect(copied).toBeVisible();
  await page.clock.runFor(200);
  await expect(chart.getByRole('button', { name: 'Copy contract address' })).toBeVisible();
  await expect(copied).toHaveCount(0);
  // The toast opens on a timer of its own (Radix), so it shows once the page's time has moved.
  await expect(toastWith(page, 'Copied!')).toContainText('Contract address copied to clipboard');
  await page.clock.resume();

  const frame = chart.locator('iframe');
  await expect(frame).toHaveAttribute('src', EMBED);
  await expect(frame).toHaveAttribute('loading', 'lazy');
  await expect(frame).toHaveAttribute('title', '$GRIND live price chart on DexScreener');
  await frame.scrollIntoViewIfNeeded();
  await expect(page.frameLocator('#chart iframe').locator('#stub')).toHaveText('chart stub');
  const box = await frame.boundingBox();
  expect(box!.width / box!.height).toBeCloseTo(16 / 9, 1);
});

test('a clipboard that refuses gets "Failed to copy"', async ({ page }) => {
  await page.addInitScript(() => {
    Object.defineProperty(navigator.clipboard, 'writeText', {
      value: () => Promise.reject(new DOMException('denied', 'NotAllowedError')),
    });
  });
  const chart = await openSection(page, 'chart');
  await chart.getByRole('button', { name: 'Copy contract address' }).click();
  await expect(toastWith(page, 'Failed to copy')).toContainText('Please copy manually');
  await expect(toastWith(page, 'Failed to copy')).toHaveAttribute('data-variant', 'destructive');
  await expect(chart.getByRole('button', { name: 'Copied!' })).toHaveCount(0);
});

test('roadmap: ten steps, the first five completed', async ({ page }) => {
  const roadmap = await openSection(page, 'roadmap');
  const steps = roadmap.getByTestId('roadmap-step');
  await expect(steps).toHaveCount(10);
  await expect(steps.locator('h3')).toHaveText([
    'Step 1: Coin Idea',
    'Step 2: Socials',
    'Step 3: Website',
    'Step 4: Mascot',
    'Step 5: Launch Coin',
    'Step 6: 50K Market Cap',
    'Step 7: Buy on a DEX',
    'Step 8: 200K Market Cap',
    'Step 9: First Giveaway',
    'Step 10: Keep Growing',
  ]);
  const completed = await steps.evaluateAll((items) =>
    items.map((li) => li.getAttribute('data-completed')),
  );
  expect(completed).toEqual([...Array(5).fill('true'), ...Array(5).fill('false')]);
  await expect(steps.filter({ hasText: 'Completed' })).toHaveCount(5);
  await expect(roadmap.getByText('5 of 10 complete')).toBeVisible();
});

test('community: four cards open in a new tab; "Join All Platforms" copies every link', async ({
  page,
}) => {
  const community = await openSection(page, 'community');
  for (const [id, [name, url]] of Object.entries(SOCIAL)) {
    const card = community.getByTestId(`social-${id}`);
    await expect(card).toContainText(name);
    await expect(card).toHaveAttribute('href', url);
    await expect(card).toHaveAttribute('target', '_blank');
    await expect(card).toHaveAttribute('rel', 'noopener noreferrer');
  }
  await community.getByRole('button', { name: 'Join All Platforms' }).click();
  await expect(toastWith(page, 'Links Copied!')).toBeVisible();
  expect(await clipboard(page)).toBe(SOCIAL_TEXT);
});

test('"Join All Platforms" without a clipboard lists the links in a "Social Links" toast', async ({
  page,
}) => {
  await page.addInitScript(() => {
    Object.defineProperty(navigator.clipboard, 'writeText', {
      value: () => Promise.reject(new DOMException('denied', 'NotAllowedError')),
    });
  });
  const community = await openSection(page, 'community');
  await community.getByRole('button', { name: 'Join All Platforms' }).click();
  const links = toastWith(page, 'Social Links');
  await expect(links).toBeVisible();
  for (const [name, url] of Object.values(SOCIAL))
    await expect(links).toContainText(`${name}: ${url}`);
});

/** A share sheet that records what the page asks it to share; returns a reader of those calls. */
async function recordShares(page: Page): Promise<() => Promise<ShareData[]>> {
  await page.addInitScript(() => {
    const calls: ShareData[] = [];
    (window as unknown as { __shares: ShareData[] }).__shares = calls;
    Object.defineProperty(Navigator.prototype, 'share', {
      value: (data: ShareData) => {
        calls.push(data);
        return Promise.resolve();
      },
    });
  });
  return () => page.evaluate(() => (window as unknown as { __shares: ShareData[] }).__shares);
}

test('"Share with Friends" opens the share sheet where there is one', async ({ page }) => {
  const sharesSoFar = await recordShares(page);
  const community = await openSection(page, 'community');
  await community.getByRole('button', { name: 'Share with Friends' }).click();
  // The sheet opens when the section has come alive: a click that came first is replayed then.
  await expect.poll(sharesSoFar).toHaveLength(1);
  const shares = await sharesSoFar();
  expect(shares[0]!.url).toBe(page.url());
  expect(shares[0]!.title).toBe('Daily Grind ($GRIND) – Celebrating the Daily Grind');
  await expect(toastWith(page, 'Link copied to clipboard!')).toHaveCount(0);
});

test('a click on a section whose code is still on its way is carried out when it arrives', async ({
  page,
}) => {
  const sharesSoFar = await recordShares(page);
  // The sections' code arrives only when the test lets it: a slow network, made certain.
  let letCodeThrough!: () => void;
  const codeHeld = new Promise<void>((resolve) => (letCodeThrough = resolve));
  await page.route(/below-the-fold-[\w-]+\.js$/, async (route) => {
    await codeHeld;
    await route.continue();
  });
  await page.goto('/#community', { waitUntil: 'domcontentloaded' });
  await section(page, 'community').getByRole('button', { name: 'Share with Friends' }).click();
  expect(await sharesSoFar()).toEqual([]);
  letCodeThrough();
  await expect.poll(sharesSoFar).toHaveLength(1);
  // Carried out once, not once more by the page.
  await expect(section(page, 'roadmap')).toBeVisible();
  expect(await sharesSoFar()).toHaveLength(1);
});

test('"Share with Friends" copies the page address where there is no share sheet', async ({
  page,
}) => {
  await page.addInitScript(() =>
    Object.defineProperty(Navigator.prototype, 'share', { value: undefined }),
  );
  const community = await openSection(page, 'community');
  await community.getByRole('button', { name: 'Share with Friends' }).click();
  await expect(toastWith(page, 'Link copied to clipboard!')).toBeVisible();
  expect(await clipboard(page)).toBe(page.url());
});

test('the gallery and the game load only as they come near, and take their places @phone', async ({
  page,
}) => {
  const chunks: string[] = [];
  page.on('request', (request) => {
    const match = /\/assets\/(gallery-section|game-section|leaderboard-panel)-/.exec(request.url());
    if (match) chunks.push(match[1]!);
  });
  await page.goto('/');
  await expect(section(page, 'home').getByRole('heading', { level: 1 })).toBeVisible();
  // A settled first screen, without waiting on network idleness (the countdown's clock check may
  // still be in flight on a loaded machine): loaded, and the browser idle twice over, by which
  // time an eagerly imported section would have asked for its chunk.
  await page.waitForLoadState('load');
  await browserIdle(page);
  await browserIdle(page);
  expect(chunks).toEqual([]);
  await expect(section(page, 'gallery')).toHaveAttribute('data-deferred', 'pending');

  await section(page, 'gallery').scrollIntoViewIfNeeded();
  await expect(
    section(page, 'gallery').getByRole('heading', { name: 'Community Meme Gallery' }),
  ).toBeVisible();
  expect(chunks).toContain('gallery-section');

  await section(page, 'game').scrollIntoViewIfNeeded();
  await expect(section(page, 'game').getByRole('button', { name: 'Start Game' })).toBeVisible({
    timeout: LAZY_SECTION_MS,
  });
  await expect(
    section(page, 'game').getByRole('heading', { name: 'Weekly Leaderboard' }),
  ).toBeVisible();
  expect(chunks).toEqual(expect.arrayContaining(['game-section', 'leaderboard-panel']));
});

test('a /#game link lands on the game once it has loaded @phone', async ({ page }) => {
  const game = await openSection(page, 'game');
  await expect(game.getByRole('button', { name: 'Start Game' })).toBeVisible({
    timeout: LAZY_SECTION_MS,
  });
  await expect(game.locator('canvas')).toBeVisible();
  // Whatever loaded above it, the game's top sits just under the sticky header.
  await expect
    .poll(() => game.evaluate((el) => Math.round(el.getBoundingClientRect().top)), {
      timeout: 10_000,
    })
    .toBeLessThanOrEqual(80);
  expect(await game.evaluate((el) => el.getBoundingClientRect().top)).toBeGreaterThanOrEqual(-8);
});

test('once the visitor presses, the page no longer moves back to the address section @phone', async ({
  page,
}) => {
  // The gallery's code arrives when the test lets it; its arrival starts a few seconds in which
  // the page keeps the address's section in place.
  let letCodeThrough!: () => void;
  const codeHeld = new Promise<void>((resolve) => (letCodeThrough = resolve));
  await page.route(/gallery-section-[\w-]+\.js$/, async (route) => {
    await codeHeld;
    await route.continue();
  });
  const gallery = await openSection(page, 'gallery');
  letCodeThrough();
  await expect(gallery.getByRole('heading', { name: 'Community Meme Gallery' })).toBeVisible({
    timeout: LAZY_SECTION_MS,
  });
  const top = () => gallery.evaluate((el) => Math.round(el.getBoundingClientRect().top));
  /** Scrolls away as a script would (no wheel, no key, no press), then changes the page's height. */
  let grow = 100;
  const scrollAwayAndGrow = () =>
    page.evaluate(
      async (grow) => {
        // Instant: the page's smooth scrolling would still be on its way when `top` is read.
        window.scrollBy({ top: 300, behavior: 'instant' });
        const spacer = document.getElementById('test-spacer') ?? document.createElement('div');
        spacer.id = 'test-spacer';
        spacer.style.height = `${grow}px`;
        document.body.append(spacer);
        const frame = () => new Promise(requestAnimationFrame);
        await frame();
        await frame();
      },
      (grow += 10),
    );
  // Meanwhile a change of height puts the section back under the header.
  await expect
    .poll(async () => {
      await scrollAwayAndGrow();
      return top();
    })
    .toBeLessThanOrEqual(80);
  // A press (dispatched on the page's background) ends that: what is under the pointer stays.
  await page.evaluate(() =>
    document.body.dispatchEvent(new PointerEvent('pointerdown', { bubbles: true })),
  );
  await scrollAwayAndGrow();
  // About 300 px above the header; the parts above may still settle by a few pixels.
  expect(await top()).toBeLessThan(-150);
});

test('a visitor who scrolls while the app is on its way keeps their place when it starts @phone', async ({
  page,
}) => {
  // The app's code arrives when the test lets it: until then the page is the server's HTML.
  let letAppThrough!: () => void;
  const appHeld = new Promise<void>((resolve) => (letAppThrough = resolve));
  await page.route(/\/assets\/app-[\w-]+\.js$/, async (route) => {
    await appHeld;
    await route.continue();
  });
  await page.goto('/#gallery', { waitUntil: 'domcontentloaded' });
  const gallery = section(page, 'gallery');
  const top = () => gallery.evaluate((el) => Math.round(el.getBoundingClientRect().top));
  // The browser itself brings the address's section up, under the header (smoothly: let it end).
  await expect.poll(top).toBeLessThanOrEqual(80);
  await scrollStopped(page);
  // The visitor scrolls back up with the wheel; the gallery stays on screen, lower down.
  await page.mouse.move(100, 300);
  await page.mouse.wheel(0, -500);
  await expect.poll(top).toBeGreaterThan(400);
  await scrollStopped(page);
  const kept = await top();
  letAppThrough();
  // The app starts and the gallery's code arrives: each of them used to put the section back.
  await expect(gallery.getByRole('heading', { name: 'Community Meme Gallery' })).toBeVisible({
    timeout: LAZY_SECTION_MS,
  });
  await browserIdle(page);
  expect(Math.abs((await top()) - kept)).toBeLessThan(40);
});

test.describe('giveaway, for a visitor in Tokyo', () => {
  test.use({ timezoneId: 'Asia/Tokyo', locale: 'en-US' });

  test('counts down to Sunday 8 pm New York time, shown in the visitor zone', async ({ page }) => {
    const giveaway = await openSection(page, 'giveaway');
    const next = nextWeeklyOccurrence(Date.now(), GIVEAWAY);
    await expect(giveaway.getByTestId('giveaway-schedule')).toHaveText(
      `${formatWeekdayTime(next, 'America/New_York', 'en-US')} (New York time)`,
    );
    await expect(giveaway.getByTestId('giveaway-schedule')).toHaveText(/^Sunday, 8:00 PM E[SD]T/);
    // Sunday 8 pm in New York is Monday morning in Tokyo (10 am in winter, 9 am in summer).
    await expect(giveaway.getByTestId('giveaway-local-time')).toHaveText(
      /^Monday, (9|10):00 AM GMT\+9$/,
    );
    const timer = giveaway.getByTestId('giveaway-countdown');
    await expect
      .poll(async () =>
        Math.abs((await countdownSeconds(timer)) - expectedGiveawaySeconds(Date.now())),
      )
      .toBeLessThanOrEqual(2);

    const trade = giveaway.getByRole('link', { name: /Trade \$GRIND/ });
    await expect(trade).toHaveAttribute('href', `https://pump.fun/coin/${ADDRESS}`);
    await expect(trade).toHaveAttribute('target', '_blank');
    await expect(trade).toHaveAttribute('rel', 'noopener noreferrer');

    const burn = giveaway.getByTestId('burn-panel');
    await expect(burn.locator('dt')).toHaveText([
      'Circulating Supply',
      'Last Burn',
      'Total Burned',
    ]);
    await expect(burn.locator('dd')).toHaveText(['1000M', '0', '0']);
    await expect(giveaway.getByTestId('giveaway-step')).toHaveCount(3);
    await expect(giveaway.getByRole('heading', { name: 'Recent Winners' })).toBeVisible();
    await expect(giveaway.getByText(NO_WINNERS)).toBeVisible();
  });

  test('a visitor whose clock is days off still sees the right countdown', async ({ page }) => {
    await page.clock.setSystemTime(new Date(Date.now() + 2 * 86_400_000 + 3_600_000));
    const giveaway = await openSection(page, 'giveaway');
    const timer = giveaway.getByTestId('giveaway-countdown');
    // The HTML shows "--" until the page has its clock.
    await expect(timer.locator('[data-unit="seconds"]')).toHaveText(/^\d\d$/);
    // The page asks the server for its time once loaded, then every countdown follows it.
    await expect
      .poll(
        async () => Math.abs((await countdownSeconds(timer)) - expectedGiveawaySeconds(Date.now())),
        {
          timeout: 10_000,
        },
      )
      .toBeLessThanOrEqual(2);
  });
});

test('footer: quick links scroll, socials open in a new tab, the short address copies in full @phone', async ({
  page,
}) => {
  await page.goto('/');
  const footer = page.locator('footer#contact');
  await footer.scrollIntoViewIfNeeded();
  await expect(
    footer.getByRole('navigation', { name: 'Quick Links' }).getByRole('link'),
  ).toHaveText(['Home', 'Tokenomics', 'Community', 'Giveaway', 'Game', 'Contact']);
  for (const [name, url] of Object.values(SOCIAL)) {
    const link = footer.getByRole('link', {
      name: new RegExp(`^${name.replace(/[()]/g, '\\$&')}`),
    });
    await expect(link).toHaveAttribute('href', url);
    await expect(link).toHaveAttribute('target', '_blank');
    await expect(link).toHaveAttribute('rel', 'noopener noreferrer');
  }
  await expect(footer.getByTestId('footer-address')).toHaveText('35vnoPAF...WBv6TWtj');
  await footer.getByRole('button', { name: 'Copy contract address' }).click();
  await expect(footer.getByRole('button', { name: 'Copied!' })).toBeVisible();
  expect(await clipboard(page)).toBe(ADDRESS);

  await footer.getByRole('link', { name: 'Tokenomics' }).click();
  await expect.poll(() => inViewport(section(page, 'tokenomics'))).toBe(true);
  await expect(page).toHaveURL(/\/#tokenomics$/);
});

test('from the shop, the footer\'s "Game" link goes home to the game @phone', async ({ page }) => {
  await page.goto('/shop');
  await page.locator('footer#contact').getByRole('link', { name: 'Game' }).click();
  await expect(page).toHaveURL(/\/#game$/);
  await expect(section(page, 'game').getByRole('button', { name: 'Start Game' })).toBeVisible({
    timeout: LAZY_SECTION_MS,
  });
  await expect.poll(() => inViewport(section(page, 'game'))).toBe(true);
});

test('back from the shop by the "Game" link, the page lands on the game though the visitor had scrolled away from it @phone', async ({
  page,
}) => {
  const game = await openSection(page, 'game');
  await expect(game.getByRole('button', { name: 'Start Game' })).toBeVisible({
    timeout: LAZY_SECTION_MS,
  });
  await expect.poll(() => inViewport(game)).toBe(true);
  // The visitor scrolls away with the wheel: from then on the page leaves them where they are...
  await page.mouse.move(100, 300);
  await page.mouse.wheel(0, -2000);
  await expect.poll(() => inViewport(game)).toBe(false);
  // ...but leaving for the shop and coming back is a new arrival at /#game. By keyboard: a press
  // would count as taking over (under the shop's address) and hide a stale one.
  if (isPhone(page)) await page.getByRole('button', { name: 'Open menu' }).click();
  await page.getByRole('link', { name: 'Shop' }).focus();
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/shop$/);
  await page.locator('footer#contact').getByRole('link', { name: 'Game' }).focus();
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/#game$/);
  await expect.poll(() => inViewport(section(page, 'game'))).toBe(true);
});

test('identity: title, description, link previews, icons, manifest and robots.txt', async ({
  page,
  request,
}) => {
  await page.goto('/');
  await expect(page).toHaveTitle('Daily Grind ($GRIND) – Celebrating the Daily Grind');
  const meta = (selector: string) => page.locator(`meta[${selector}]`).getAttribute('content');
  expect(await meta('name="description"')).toMatch(/community token on Solana/);
  expect(await meta('property="og:title"')).toBe(
    'Daily Grind ($GRIND) – Celebrating the Daily Grind',
  );
  expect(await meta('property="og:image"')).toMatch(/\/og-image\.png$/);
  expect(await meta('name="twitter:card"')).toBe('summary_large_image');
  expect(await meta('name="theme-color"')).toBe('#0f172a');

  const links = await page.evaluate(() =>
    [
      ...document.querySelectorAll<HTMLLinkElement>(
        'link[rel~="icon"], link[rel="apple-touch-icon"], link[rel="manifest"]',
      ),
    ].map((l) => l.getAttribute('href')!),
  );
  expect(links).toEqual(
    expect.arrayContaining([
      '/favicon.svg',
      '/favicon-32.png',
      '/apple-touch-icon.png',
      '/site.webmanifest',
    ]),
  );
  const types: Record<string, RegExp> = {
    '/favicon.svg': /image\/svg\+xml/,
    '/favicon-32.png': /image\/png/,
    '/apple-touch-icon.png': /image\/png/,
    '/og-image.png': /image\/png/,
    '/site.webmanifest': /manifest\+json|application\/json/,
    '/robots.txt': /text\/plain/,
  };
  for (const [path, type] of Object.entries(types)) {
    const res = await request.get(path);
    expect(res.status(), path).toBe(200);
    expect(res.headers()['content-type'], path).toMatch(type);
  }
  const manifest = (await (await request.get('/site.webmanifest')).json()) as { icons: unknown[] };
  expect(manifest.icons.length).toBeGreaterThan(0);
});

test('smooth scrolling follows the reduced-motion setting', async ({ page }) => {
  await page.goto('/');
  const behaviour = () =>
    page.evaluate(() => getComputedStyle(document.documentElement).scrollBehavior);
  expect(await behaviour()).toBe('smooth');
  await page.emulateMedia({ reducedMotion: 'reduce' });
  expect(await behaviour()).toBe('auto');
});

test('the keyboard reaches the hero buttons with a visible focus ring', async ({ page }) => {
  await page.goto('/');
  await expect(section(page, 'home').getByRole('heading', { level: 1 })).toBeVisible();
  const learnMore = section(page, 'home').getByRole('button', { name: 'Learn More' });
  for (let i = 0; i < 30; i++) {
    await page.keyboard.press('Tab');
    if (await learnMore.evaluate((el) => el === document.activeElement)) break;
  }
  await expect(learnMore).toBeFocused();
  const outline = await learnMore.evaluate((el) => {
    const style = getComputedStyle(el);
    return { style: style.outlineStyle, width: parseFloat(style.outlineWidth) };
  });
  expect(outline.style).not.toBe('none');
  expect(outline.width).toBeGreaterThanOrEqual(2);
  await page.keyboard.press('Enter');
  await expect.poll(() => inViewport(section(page, 'tokenomics'))).toBe(true);
});

test('the header buttons scroll to their sections (through the menu on a phone) @phone', async ({
  page,
}) => {
  await page.goto('/');
  if (isPhone(page)) {
    await page.getByRole('button', { name: 'Open menu' }).click();
    const menu = page.locator('#mobile-menu');
    await menu.getByRole('button', { name: 'Giveaway' }).click();
    // The menu closes after a choice.
    await expect(menu).toHaveCount(0);
  } else {
    await page.getByRole('banner').getByRole('button', { name: 'Giveaway' }).click();
  }
  await expect.poll(() => inViewport(section(page, 'giveaway'))).toBe(true);
  await expect(page).toHaveURL(/#giveaway$/);
});
