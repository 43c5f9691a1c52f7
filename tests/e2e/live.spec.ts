import { expect, test, type Locator, type Page } from '@playwright/test';
import { isPhone, postedMeme, serverOfItsOwn, signUpViaApi, uniqueUsername } from './support.ts';

// Two pages on one site: what one page does shows on the other within seconds, without a reload
// (issue 34, docs/decisions/021). The site is a server of its own, so the memes and scores that
// other journeys post meanwhile change neither the pill's count nor the board.
const site = serverOfItsOwn();

const ROUND_TIMEOUT = 30_000;
const LIVE_TIMEOUT = 5_000;

const card = (page: Page, title: string) =>
  page.getByTestId('meme-card').filter({ hasText: title });

test('one page votes and plays; the other sees the counts, new memes and the board change', async ({
  browser,
}, testInfo) => {
  // Two pages, a vote, two posts and a whole round: more than the default minute on a busy
  // machine, though each step has its own bound below.
  test.setTimeout(150_000);
  const pageOnSite = async () =>
    (
      await browser.newContext({ viewport: testInfo.project.use.viewport, baseURL: site.origin() })
    ).newPage();
  const watcher = await pageOnSite();
  const actor = await pageOnSite();
  /** The actor upvotes `memeTitle`; the watcher's card of it, `watched`, follows by itself. */
  const upvoteWatched = async (memeTitle: string, watched: Locator, screenshot: string) => {
    await actor.goto('/#gallery');
    const acting = card(actor, memeTitle);
    await acting.getByRole('button', { name: /^Upvote/ }).click();
    await expect(acting.getByTestId('upvotes')).toHaveText('1');
    await expect(watched.getByTestId('upvotes')).toHaveText('1', { timeout: LIVE_TIMEOUT });
    await watcher.screenshot({ path: testInfo.outputPath(screenshot) });
  };

  const name = uniqueUsername('live');
  await signUpViaApi(actor, name);
  const title = `Live meme ${name}`;
  await postedMeme(actor, title);

  const streamOpened = watcher.waitForRequest((r) => r.url().includes('/api/events'), {
    timeout: 30_000,
  });
  await watcher.goto('/#gallery');
  const watched = card(watcher, title);
  await expect(watched.getByTestId('upvotes')).toHaveText('0', { timeout: 30_000 });
  // The stream connects once the gallery has loaded; give it the moment it takes.
  await streamOpened;

  await upvoteWatched(title, watched, 'watcher-vote.png');

  // A new meme: counted in a pill over the grid, not pushed under the reader.
  const box = await watched.boundingBox();
  const second = `Second live meme ${name}`;
  await postedMeme(actor, second);
  const pill = watcher.getByTestId('new-memes');
  await expect(pill).toHaveText('1 new meme: show', { timeout: LIVE_TIMEOUT });
  expect(await watched.boundingBox()).toEqual(box);
  await expect(card(watcher, second)).toHaveCount(0);
  await watcher.screenshot({ path: testInfo.outputPath('watcher-pill.png') });
  await pill.click();
  await expect(card(watcher, second)).toHaveCount(1);
  await expect(pill).toHaveCount(0);

  // A round on the actor's page puts its player on the watcher's board.
  await watcher.locator('section#game').scrollIntoViewIfNeeded();
  const board = watcher.getByTestId('leaderboard-top');
  await expect(board).toBeVisible({ timeout: 30_000 });
  await expect(board).not.toContainText(name);
  const boardRead = watcher.waitForResponse((r) => r.url().includes('/api/leaderboard'), {
    timeout: ROUND_TIMEOUT + 20_000,
  });
  await actor.goto('/');
  const section = actor.locator('section#game');
  await section.scrollIntoViewIfNeeded();
  const start = section.locator('button', { hasText: 'Start Game' });
  await expect(start).toBeEnabled({ timeout: 30_000 });
  await start.click();
  await expect(section.getByTestId('game-instructions')).toContainText('Game Over!', {
    timeout: ROUND_TIMEOUT,
  });
  // The watcher reads the board again by itself, and the player is on it.
  await boardRead;
  await expect(board).toContainText(name, { timeout: LIVE_TIMEOUT });
  await board.scrollIntoViewIfNeeded();
  await watcher.screenshot({
    path: testInfo.outputPath(`watcher-board-${isPhone(watcher) ? 'phone' : 'desktop'}.png`),
  });

  // At 390x844 too: a phone watching the gallery sees a vote change the count in place.
  await watcher.setViewportSize({ width: 390, height: 844 });
  await actor.setViewportSize({ width: 390, height: 844 });
  const watchedSecond = card(watcher, second);
  await watchedSecond.scrollIntoViewIfNeeded();
  await expect(watchedSecond.getByTestId('upvotes')).toHaveText('0');
  await upvoteWatched(second, watchedSecond, 'watcher-vote-phone.png');
  await Promise.all([watcher.context().close(), actor.context().close()]);
});
