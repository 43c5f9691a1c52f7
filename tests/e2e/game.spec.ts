import { expect, test, type Page } from '@playwright/test';
import { FrameClock } from '#client/features/game/frame-clock.ts';
import { roundWithCoins } from '#test-support/round-with-coins.ts';
import { isPhone, requestsSoFar, signUpViaApi, toastWith, uniqueUsername } from './support';
import { gamePaths } from '#shared/api/paths.ts';

// A round: Start, the 3-2-1-GO countdown, then the worker flies until it hits the floor (nobody
// presses anything, so that takes about half a second), and the end-of-round handling runs.
// Short states such as "Flying" are recorded in the page as they happen, so a slow machine
// cannot make the test miss them.

const ROUND_TIMEOUT = 30_000;

async function openGame(page: Page) {
  await page.goto('/');
  const section = page.locator('section#game');
  await section.scrollIntoViewIfNeeded();
  await expect(section.getByRole('button', { name: 'Start Game' })).toBeEnabled({
    timeout: 30_000,
  });
  await page.evaluate(() => {
    const root = document.getElementById('game')!;
    const seen = { statuses: [] as string[], countdown: [] as string[] };
    (window as unknown as { __gameSeen: typeof seen }).__gameSeen = seen;
    const push = (list: string[], value: string | null | undefined) => {
      if (value && list.at(-1) !== value) list.push(value);
    };
    const record = () => {
      push(seen.statuses, root.querySelector('[data-testid=game-status]')?.textContent);
      push(seen.countdown, root.querySelector('[data-testid=game-countdown]')?.textContent);
    };
    record();
    new MutationObserver(record).observe(root, {
      subtree: true,
      childList: true,
      characterData: true,
    });
  });
  return section;
}

const seen = (page: Page) =>
  page.evaluate(
    () =>
      (window as unknown as { __gameSeen: { statuses: string[]; countdown: string[] } }).__gameSeen,
  );

async function playRound(page: Page) {
  const section = page.locator('section#game');
  // Not by role: the name prompt hides the rest of the page from the accessibility tree.
  const start = section.locator('button', { hasText: 'Start Game' });
  await page.evaluate(() => {
    const record = (
      window as unknown as { __gameSeen: { statuses: string[]; countdown: string[] } }
    ).__gameSeen;
    record.statuses.splice(0, record.statuses.length - 1);
    record.countdown.length = 0;
  });
  await start.click();
  await expect(start).toBeDisabled();
  await expect(section.getByTestId('game-countdown')).toBeVisible();
  await expect
    .poll(async () => (await seen(page)).statuses, { timeout: ROUND_TIMEOUT })
    .toContain('Flying');
  await expect(section.getByTestId('game-instructions')).toContainText('Game Over!', {
    timeout: ROUND_TIMEOUT,
  });
  await expect(section.getByTestId('game-status')).toHaveText('Ready');
  await expect(start).toBeEnabled();
  const record = await seen(page);
  expect(record.countdown).toEqual(['3', '2', '1', 'GO']);
  expect(record.statuses).toEqual(['Ready', 'Flying', 'Ready']);
  return Number(await section.getByTestId('game-score').textContent());
}

async function expectOnFullLeaderboard(page: Page, name: string, score: number) {
  await page.getByRole('button', { name: 'View Full Leaderboard' }).click();
  const dialog = page.getByRole('dialog', { name: 'Full Leaderboard' });
  const row = dialog
    .getByTestId('leaderboard-full')
    .getByRole('listitem')
    .filter({ hasText: name });
  await expect(row).toHaveCount(1);
  await expect(row).toContainText(String(score));
  await expect(row).toContainText('Today');
  await dialog.getByRole('button', { name: 'Close' }).click();
}

/** Opens the full leaderboard, watches the player's entry at 4x and checks where it ends. */
async function watchReplay(page: Page, name: string, score: number) {
  await page.getByRole('button', { name: 'View Full Leaderboard' }).click();
  const board = page.getByRole('dialog', { name: 'Full Leaderboard' });
  // The viewer's code is loaded when asked for, not before.
  const loaded = () =>
    page.evaluate(() =>
      performance.getEntriesByType('resource').some((e) => e.name.includes('replay-dialog')),
    );
  expect(await loaded()).toBe(false);
  const replayChunk = page.waitForRequest((r) => r.url().includes('replay-dialog'));
  await board.getByRole('button', { name: `Watch ${name}'s run` }).click();
  await replayChunk;
  const viewer = page.getByRole('dialog', { name: `Replay: ${name}` });
  // Its code arrives now: over 10 s on a machine loaded by the whole suite.
  await expect(viewer.getByRole('img', { name: new RegExp(`scoring ${score}`) })).toBeVisible({
    timeout: 30_000,
  });
  await viewer.getByLabel('Speed').selectOption('4');
  // Played to its end by the game's engine in the viewer: the same score as the round.
  await expect(viewer.getByRole('button', { name: 'Play' })).toBeVisible({ timeout: 30_000 });
  await expect(viewer.getByTestId('replay-score')).toHaveText(String(score));
  await expect(viewer.getByTestId('replay-statistics')).toBeVisible();
  await expect(viewer.getByTestId('replay-timeline')).toBeVisible();
  // Seek to the start, then frame by frame.
  await viewer.getByLabel('Seek').fill('0');
  await expect(viewer.getByTestId('replay-score')).toHaveText('0');
  await viewer.getByRole('button', { name: 'Next frame' }).click();
  await expect(viewer.getByTestId('replay-time')).toContainText('0.0 /');
  await page.keyboard.press('Escape');
  await expect(viewer).toHaveCount(0);
  await page.keyboard.press('Escape');
  await expect(board).toHaveCount(0);
}

test('a member plays a round and the score lands on the weekly leaderboard under their name', async ({
  page,
}) => {
  const name = uniqueUsername('gamer');
  await signUpViaApi(page, name);
  const section = await openGame(page);
  await expect(section.getByText('Playing as a visitor')).toHaveCount(0);
  await expect(section.getByText('Weekly Challenge Prize')).toBeVisible();
  await expect(section.getByText('1 SOL', { exact: true })).toBeVisible();
  await expect(section.getByTestId('weekly-countdown')).toHaveText(/Resets in \d+d \d\d:\d\d:\d\d/);

  const submitted = page.waitForResponse((r) => r.url().endsWith(gamePaths.scores));
  const score = await playRound(page);
  const response = await submitted;
  expect(response.status()).toBe(201);
  expect(response.request().postDataJSON()).toMatchObject({ playerName: name, score });
  await expect(toastWith(page, 'Score Submitted!')).toBeVisible();
  // No dialog for a member: the username is the leaderboard name.
  await expect(page.getByText('Enter your name for the leaderboard:')).toHaveCount(0);
  await expectOnFullLeaderboard(page, name, score);
  await expect(section.getByText('High Score')).toBeVisible();
});

// A replay has an address: the Watch button puts it in the location bar, and opening it (on
// arrival or by changing the hash) shows the viewer; closing the viewer takes it away.
test('a replay has an address anyone can open', async ({ page }) => {
  const name = uniqueUsername('watched');
  await signUpViaApi(page, name);
  await openGame(page);
  const submitted = page.waitForResponse((r) => r.url().endsWith(gamePaths.scores));
  const score = await playRound(page);
  expect((await submitted).status()).toBe(201);
  // Before the board opens: a toast that comes later is a layer above it and takes its Escape.
  await expect(toastWith(page, 'Score Submitted!')).toBeVisible();

  await page.getByRole('button', { name: 'View Full Leaderboard' }).click();
  const board = page.getByRole('dialog', { name: 'Full Leaderboard' });
  await board.getByRole('button', { name: `Watch ${name}'s run` }).click();
  const viewer = page.getByRole('dialog', { name: `Replay: ${name}` });
  await expect(viewer.getByRole('img', { name: new RegExp(`scoring ${score}$`) })).toBeVisible();
  const address = new URL(page.url());
  expect(address.pathname).toBe('/');
  expect(address.hash).toMatch(/^#replay-\d+$/);
  await page.keyboard.press('Escape');
  await expect(viewer).toHaveCount(0);
  expect(new URL(page.url()).hash).toBe('');
  await page.keyboard.press('Escape');
  await expect(board).toHaveCount(0);

  // The address, opened as a new page load by someone who is not signed in.
  await page.context().clearCookies();
  await page.goto('about:blank');
  const loaded = page.waitForRequest((r) => r.url().includes('replay-dialog'));
  await page.goto(address.href);
  await loaded;
  await expect(viewer.getByRole('img', { name: new RegExp(`scoring ${score}$`) })).toBeVisible();
  await expect(viewer.getByText(`${name} · ${score} points`)).toBeVisible();
  await viewer.getByRole('button', { name: 'Close' }).click();
  await expect(viewer).toHaveCount(0);
  expect(page.url()).toBe(new URL('/', address).href);

  // The hash changing on the open page opens it too.
  await page.evaluate((hash) => {
    window.location.hash = hash;
  }, address.hash);
  await expect(viewer.getByTestId('replay-score')).toBeVisible();
  await expect(viewer.getByRole('img', { name: new RegExp(`scoring ${score}$`) })).toBeVisible();
});

test('a visitor is asked for a leaderboard name once, and it is kept for the next round', async ({
  page,
}) => {
  const section = await openGame(page);
  await expect(section.getByText('Playing as a visitor')).toBeVisible();

  const score = await playRound(page);
  const prompt = page.getByRole('dialog', { name: 'Save your score' });
  await expect(prompt).toBeVisible();
  const name = `Visitor ${uniqueUsername('v').slice(-10)}`;
  await prompt.getByLabel('Enter your name for the leaderboard:').fill(`  ${name}  `);
  await prompt.getByRole('button', { name: 'Submit Score' }).click();
  await expect(toastWith(page, 'Score Submitted!')).toBeVisible();
  await expectOnFullLeaderboard(page, name, score);

  // Second round: the stored name is used without asking.
  const submitted = page.waitForResponse((r) => r.url().endsWith(gamePaths.scores));
  await playRound(page);
  expect((await submitted).request().postDataJSON()).toMatchObject({ playerName: name });
  await expect(page.getByRole('dialog', { name: 'Save your score' })).toHaveCount(0);
});

test('a visitor who skips the name prompt submits nothing', async ({ page }) => {
  await openGame(page);
  let submissions = 0;
  page.on('request', (r) => {
    if (r.url().endsWith(gamePaths.scores)) submissions += 1;
  });
  await playRound(page);
  const prompt = page.getByRole('dialog', { name: 'Save your score' });
  await prompt.getByRole('button', { name: 'Skip' }).click();
  await expect(prompt).toHaveCount(0);
  await requestsSoFar(page);
  expect(submissions).toBe(0);
  await expect(toastWith(page, 'Score Submitted!')).toHaveCount(0);
});

test('the playfield keeps its 7:4 shape and fits the screen @phone', async ({ page }) => {
  const section = await openGame(page);
  const canvas = section.locator('canvas');
  const box = (await canvas.boundingBox())!;
  const viewport = page.viewportSize()!;
  expect(box.width).toBeLessThanOrEqual(Math.min(700, viewport.width));
  expect(box.x).toBeGreaterThanOrEqual(0);
  expect(box.height / box.width).toBeCloseTo(400 / 700, 2);
  const backing = await canvas.evaluate((c: HTMLCanvasElement) => ({
    width: c.width,
    css: c.clientWidth,
    dpr: window.devicePixelRatio,
  }));
  expect(backing.width).toBe(Math.round(backing.css * backing.dpr));
});

/**
 * The frames of a round the page runs on a 16 ms frame clock, in ms after the frame that starts
 * it: the frame before which each jump is pressed, and the frame that runs the round's last step.
 * A 16 ms frame runs at most one 16.7 ms step, so every jump is the first step of its frame.
 */
function roundFrames(inputs: number[], steps: number): { presses: number[]; end: number } {
  const clock = new FrameClock();
  clock.restart(0);
  const presses: number[] = [];
  let now = 0;
  for (let step = 0; step < steps;) {
    now += 16;
    const ran = clock.stepsFor(clock.elapsed(now));
    if (ran > 0 && inputs[presses.length] === step) presses.push(now);
    step += ran;
  }
  expect(presses).toHaveLength(inputs.length);
  return { presses, end: now };
}

/**
 * Lets the page press jumps itself, just before given animation frames, counted in ms from the
 * frame that started the round (the one after which the status reads "Flying"): a slow machine
 * cannot then make a press land a frame late, nor miss the start. Installed over Playwright's
 * fake requestAnimationFrame; the press is the event a key or a tap sends.
 */
async function installFramePresses(page: Page): Promise<void> {
  await page.evaluate((phone) => {
    const raf = window.requestAnimationFrame.bind(window);
    const presses: FramePresses = { started: null, lastFrame: 0, due: [] };
    (window as unknown as { __presses: FramePresses }).__presses = presses;
    const press = () => {
      if (phone) {
        const init = { bubbles: true, cancelable: true, isPrimary: true, pointerType: 'touch' };
        document
          .querySelector('section#game canvas')!
          .dispatchEvent(new PointerEvent('pointerdown', init));
      } else {
        const init = { key: ' ', code: 'Space', bubbles: true, cancelable: true };
        document.body.dispatchEvent(new KeyboardEvent('keydown', init));
      }
    };
    window.requestAnimationFrame = (callback) =>
      raf((time) => {
        presses.lastFrame = time;
        // Before whichever of the frame's callbacks runs first, so before the game's.
        const due = presses.due;
        while (presses.started !== null && due.length > 0 && presses.started + due[0]! <= time) {
          due.shift();
          press();
        }
        callback(time);
      });
    // The start frame's render lands before the next frame runs (React renders a store's
    // change in a microtask, and the fake clock yields between timers).
    const status = document.querySelector('section#game [data-testid=game-status]')!;
    new MutationObserver(() => {
      if (presses.started === null && status.textContent === 'Flying') {
        presses.started = presses.lastFrame;
      }
    }).observe(status, { subtree: true, childList: true, characterData: true });
  }, isPhone(page));
}

/** In the page: the start frame once seen, the last frame run, the presses still due. */
type FramePresses = { started: number | null; lastFrame: number; due: number[] };

// The browser plays on a paused clock that the test runs, so the round is exactly the one worked
// out here. The server paces the round against its own clock (progress reports each second), so
// the page's clock is kept near real time: the test waits when it is ahead, and runs up to 2 s
// of frames at once when a slow machine leaves it behind. One jump is a real key press or tap;
// the page presses the others itself at their frames: a test that pressed each one (two browser
// round trips a jump) and ran the countdown's end frame by frame fell behind on a busy machine.
test('a member earns coins by playing a paced round, and anyone can watch its replay @phone', async ({
  page,
}) => {
  const name = uniqueUsername('earner');
  await page.clock.install();
  await signUpViaApi(page, name);
  const section = await openGame(page);
  await installFramePresses(page);
  // The page's fake clock flows with real time until paused; a target read from the page and
  // 1 s ahead was already past when a busy machine took longer than that to send the pause.
  // Five seconds ahead of this process's clock is still in the page's future; the round is paced
  // against real time below (ticket.startsAt), not against the page's clock.
  await page.clock.pauseAt(Date.now() + 5000);

  const issued = page.waitForResponse(
    (r) => r.url().endsWith(gamePaths.runs) && r.request().method() === 'POST',
  );
  await section.locator('button', { hasText: 'Start Game' }).click();
  // The server says when it counts the round as started (its issue plus the countdown); the
  // test and the server share this machine's clock.
  const ticket = (await (await issued).json()) as { runId: string; seed: number; startsAt: number };
  const { inputs, result } = roundWithCoins(ticket.seed);
  const frames = roundFrames(inputs, result.steps);
  // The first jump at least half a second in is pressed for real, the others by the page.
  const real = frames.presses.findIndex((at) => at >= 500);
  expect(real, 'a jump half a second into the round').toBeGreaterThanOrEqual(0);
  await page.evaluate(
    (due) => {
      (window as unknown as { __presses: FramePresses }).__presses.due = due;
    },
    frames.presses.filter((_, i) => i !== real),
  );
  const submitted = page.waitForResponse((r) => r.url().endsWith(gamePaths.scores));
  const saved = page.waitForResponse((r) => r.url().endsWith(gamePaths.coins));
  const reports: Promise<number>[] = [];
  page.on('response', (r) => {
    if (r.url().endsWith('/progress')) reports.push(Promise.resolve(r.status()));
  });

  // Most of the countdown (3.8 s) at once; the rest once the server's clock has reached the
  // start too, a few frames at a time until the page has seen the round start.
  await page.clock.runFor(3600);
  await page.waitForTimeout(Math.max(0, ticket.startsAt - Date.now()));
  let now = -1;
  for (let chunk = 0; now < 0; chunk++) {
    expect(chunk, 'the countdown should end within 5 s').toBeLessThan(100);
    await page.clock.runFor(48);
    now = await page.evaluate(() => {
      const { started, lastFrame } = (window as unknown as { __presses: FramePresses }).__presses;
      return started === null ? -1 : lastFrame - started;
    });
  }

  // Runs the page's frames up to `until` (ms after the start frame): no more than 0.1 s ahead of
  // real time (the server allows 1.5 s), and as much as 2 s of frames at once when behind it.
  const runTo = async (until: number) => {
    while (now < until) {
      const ahead = now - (Date.now() - ticket.startsAt);
      if (ahead > 0) await page.waitForTimeout(ahead);
      const behind = Date.now() - ticket.startsAt - now;
      const run = Math.min(until - now, 2000, Math.max(96, Math.floor(behind / 16) * 16));
      await page.clock.runFor(run);
      now += run;
    }
  };
  await runTo(frames.presses[real]! - 16);
  await (isPhone(page) ? section.locator('canvas').tap() : page.keyboard.press('Space'));
  await runTo(frames.end);

  await expect(section.getByTestId('game-instructions')).toContainText('Game Over!');
  await expect(section.getByTestId('game-coins')).toHaveText(String(result.coins));
  const score = await submitted;
  expect(score.status()).toBe(201);
  expect(score.request().postDataJSON()).toMatchObject({ score: result.score, inputs });
  const coins = await saved;
  expect(coins.status()).toBe(200);
  expect(coins.request().postDataJSON()).toEqual({
    amount: result.coins,
    runId: ticket.runId,
    inputs,
  });
  // The round is over: let the page's timers run again (the toasts' code loads and shows on them).
  await page.clock.resume();
  const s = result.coins === 1 ? '' : 's';
  await expect(toastWith(page, 'Coins Earned!')).toContainText(
    `${result.coins} coin${s} saved. Balance: ${result.coins}.`,
    { timeout: 30_000 },
  );

  // The round reported its progress while it ran (once a second, then at game over).
  const statuses = await Promise.all(reports);
  expect(statuses.length).toBeGreaterThanOrEqual(Math.floor(result.steps / 60));
  expect(statuses.every((code) => code === 200)).toBe(true);

  await watchReplay(page, name, result.score);
  await page.goto('/shop');
  await expect(page.getByTestId('coin-balance')).toHaveText(`${result.coins} coins`);
});

// A hidden tab pauses the page, and a paused round is what a slowed one looks like: it ends at
// once. The page's clock is held still once the round runs, so the round is surely still on
// when the tab is hidden (as the browser does when the player switches tabs).
test('a round whose tab is hidden ends at once with a message, and submits nothing', async ({
  page,
}) => {
  await page.clock.install();
  const section = await openGame(page);
  // The page's fake clock flows with real time until paused; a target read from the page and
  // 1 s ahead was already past when a busy machine took longer than that to send the pause.
  // Five seconds ahead of this process's clock is still in the page's future; the round is paced
  // against real time below (roundStart), not against the page's clock.
  await page.clock.pauseAt(Date.now() + 5000);
  const requests: string[] = [];
  page.on('request', (r) => requests.push(new URL(r.url()).pathname));
  await section.locator('button', { hasText: 'Start Game' }).click();
  await page.clock.runFor(3600);
  const status = section.getByTestId('game-status');
  for (let frame = 0; (await status.textContent()) !== 'Flying'; frame++) {
    expect(frame, 'the countdown should end within 5 s').toBeLessThan(100);
    await page.clock.runFor(16);
  }
  await page.evaluate(() => {
    Object.defineProperty(document, 'hidden', { configurable: true, get: () => true });
    Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => 'hidden' });
    document.dispatchEvent(new Event('visibilitychange'));
  });
  // The round ended on the hidden event itself; the page's timers run again for the toast.
  await page.clock.resume();
  await expect(toastWith(page, 'Round ended')).toContainText('The game was hidden');
  await expect(status).toHaveText('Ready');
  await expect(section.getByTestId('game-instructions')).toContainText('Game Over!');
  await expect(page.getByRole('dialog', { name: 'Save your score' })).toHaveCount(0);
  expect(requests.filter((path) => path === gamePaths.scores)).toEqual([]);
});
