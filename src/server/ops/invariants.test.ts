import { sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { postMeme } from '#test-support/gallery.ts';
import { contentTypeForKey } from '../storage/object-store.ts';
import { creditCoins } from '../shop/ledger.ts';
import { createTestApp, uniqueName, type TestApp } from '#test-support/test-app.ts';
import { TestClient } from '#test-support/test-client.ts';
import { databaseKinds } from '#test-support/test-database.ts';
import { findInvariantViolations } from '#test-support/invariants.ts';
import { VISITOR_VOTES_PER_NETWORK } from '../memes/vote-rules.ts';
import { memePaths, shopPaths, pathTo } from '#shared/api/paths.ts';
import { sleep } from '#test-support/sleep.ts';

describe.each(databaseKinds)('invariant checks on %s', (kind) => {
  let t: TestApp;
  let userId: number;
  let memeId: number;
  let imageKey: string;
  let thumbnailKey: string;

  beforeEach(async () => {
    t = await createTestApp(kind);
    const member = TestClient.inject(t.app);
    userId = (await member.register(uniqueName('inv'))).id;
    await creditCoins(t.app.deps.db, { userId, amount: 100, reason: 'grant', now: t.clock.now() });
    expect(
      (await member.request('POST', pathTo(shopPaths.purchase, { key: 'hardhat' }))).statusCode,
    ).toBe(200);
    const meme = await postMeme(t.app, member);
    memeId = meme.id;
    imageKey = meme.imageUrl.replace('/objects/', '');
    thumbnailKey = meme.thumbnailUrl.replace('/objects/', '');
    expect(
      (
        await member.request('POST', pathTo(memePaths.vote, { id: meme.id }), {
          body: { voteType: 'up' },
        })
      ).statusCode,
    ).toBe(200);
  });
  afterEach(async () => {
    await t.app.close();
    await sleep(100);
    await t.close();
  });

  const violations = () => findInvariantViolations(t.app.deps.db, t.app.deps.objectStore!);

  it('finds nothing wrong with data the app wrote', async () => {
    expect(await violations()).toEqual([]);
  });

  it('reports counts that differ from the votes stored', async () => {
    await t.app.deps.db.updateTable('memes').set({ upvotes: 2 }).where('id', '=', memeId).execute();
    expect(await violations()).toEqual([
      `meme ${memeId}: counts 2 up / 0 down, votes stored 1 / 0`,
    ]);
  });

  it('reports more visitor votes from one network than the cap allows', async () => {
    const votes = Array.from({ length: VISITOR_VOTES_PER_NETWORK + 1 }, (_, i) => ({
      meme_id: memeId,
      voter: `v:same-network-${i}`,
      vote_type: 'down' as const,
      created_at: t.clock.now(),
      network: 'n:one-network',
    }));
    await t.app.deps.db.insertInto('meme_votes').values(votes).execute();
    await t.app.deps.db
      .updateTable('memes')
      .set({ downvotes: votes.length })
      .where('id', '=', memeId)
      .execute();
    expect(await violations()).toEqual([
      `meme ${memeId}: ${votes.length} visitor votes from one network (at most ${VISITOR_VOTES_PER_NETWORK})`,
    ]);
  });

  it('reports a balance the ledger does not explain, and a debit without its character', async () => {
    await t.app.deps.db.updateTable('users').set({ coins: 70 }).where('id', '=', userId).execute();
    await t.app.deps.db.deleteFrom('owned_characters').where('user_id', '=', userId).execute();
    expect(await violations()).toEqual([
      `user ${userId}: balance 70, ledger sum 50`,
      expect.stringMatching(/^ledger row \d+: a debit for \d+:hardhat not owned$/),
    ]);
  });

  it('reports a ledger row whose running balance is off', async () => {
    await t.app.deps.db
      .updateTable('coin_ledger')
      .set({ balance_after: sql`balance_after + 1` })
      .where('reason', '=', 'purchase')
      .execute();
    expect(await violations()).toEqual([
      expect.stringMatching(/^ledger row \d+: balance_after 51, running sum 50/),
    ]);
  });

  it('reports a meme whose image is missing or cut short', async () => {
    const store = t.app.deps.objectStore!;
    const whole = (await store.getObjectBuffer(imageKey, 10_000_000))!;
    const half = whole.subarray(0, whole.length >> 1);
    await store.putObject(imageKey, half, contentTypeForKey(imageKey), 'no-store');
    await store.deleteObject(thumbnailKey);
    const found = await violations();
    expect(found).toHaveLength(2);
    expect(found[0]).toMatch(new RegExp(`^meme ${memeId}: ${imageKey} does not decode`));
    expect(found[1]).toBe(`meme ${memeId}: ${thumbnailKey} is missing`);
  });

  it('reports a score whose run was never marked submitted', async () => {
    const runId = 'r'.repeat(22);
    await t.app.deps.db
      .insertInto('game_runs')
      .values({ id: runId, seed: 1, user_id: null, issued_at: t.clock.now() })
      .execute();
    await t.app.deps.db
      .insertInto('game_scores')
      .values({
        run_id: runId,
        user_id: null,
        player_key: 'n:x',
        player_name: 'x',
        score: 1,
        level: 1,
        tasks_completed: 1,
        power_ups_collected: 0,
        game_time: 1,
        week_start: 0,
        created_at: t.clock.now(),
      })
      .execute();
    expect(await violations()).toEqual([
      expect.stringMatching(new RegExp(`^score \\d+: run ${runId} not marked submitted$`)),
    ]);
  });
});
