import { describe, expect, it } from 'vitest';
import { consolePaths } from '#shared/api/console/common.ts';
import { LIVE_EVENTS_PATH } from '#shared/api/live.ts';
import type { LeaderboardEntry } from '#shared/api/game.ts';

import type { WalletChallenge } from '#shared/api/wallet.ts';
import { gamePaths, walletPaths } from '#shared/api/paths.ts';
import { WEEK_MS, weekStartUtc } from '#shared/time.ts';
import { EventStreamReader } from '#test-support/event-stream.ts';
import { storeHonestEntry } from '#test-support/honest-run.ts';
import { operator, passkeySignIn } from '#test-support/operators.ts';
import { suiteApp, uniqueName } from '#test-support/test-app.ts';
import { TestClient } from '#test-support/test-client.ts';
import { databaseKinds } from '#test-support/test-database.ts';
import { TestWallet } from '#test-support/test-wallet.ts';
import { READ_CACHE_LONGEST_MS } from '../http/read-cache.ts';
import { shortestWatchMs } from '../prize/review.ts';

const runPath = (pattern: string, runId: string) => pattern.replace(':runId', runId);

describe.each(databaseKinds)('the console Prize week on %s', (kind) => {
  const t = suiteApp(kind, { publicOrigin: 'http://localhost:3000' });
  const db = () => t.app.deps.db;

  /** A leaderboard entry whose run really replays, stored as the game does. */
  async function seedEntry(userId: number, playerName: string, targetSteps: number) {
    return storeHonestEntry(db(), { userId, playerName, targetSteps, at: t.clock.now() });
  }

  async function member(name: string) {
    const client = TestClient.inject(t.app);
    const user = await client.register(uniqueName(name));
    const issued = (await client.request('POST', walletPaths.challenge)).json<WalletChallenge>();
    const res = await client.request('POST', walletPaths.link, {
      body: { ...new TestWallet().signIn(issued), password: 'password123' },
    });
    expect(res.statusCode, res.body).toBe(200);
    return { client, user };
  }

  /** Opens the run's replay and reports it watched once it could have played out at top speed. */
  async function watch(client: TestClient, runId: string, gameTime: number) {
    const opened = await client.request('POST', runPath(consolePaths.replayOpened, runId));
    expect(opened.statusCode, opened.body).toBe(200);
    t.clock.advance(shortestWatchMs(gameTime));
    return client.request('POST', runPath(consolePaths.replayWatched, runId));
  }

  const log = async (client: TestClient, kind: string) =>
    (await client.request('GET', `${consolePaths.log}?kind=${kind}`)).json<{
      entries: { targetId: string; operatorName: string; reason: string }[];
    }>().entries;

  const disqualify = (client: TestClient, runId: string, reason: string) =>
    client.request('POST', runPath(consolePaths.disqualify, runId), { body: { reason } });

  /** The ids of the entries on this week's public board, as `visitor` reads it. */
  const boardIds = async (visitor: TestClient) =>
    (await visitor.request('GET', `${gamePaths.leaderboard}?limit=50`))
      .json<LeaderboardEntry[]>()
      .map((e) => e.id);

  it('refuses an approval without a recorded watch by that operator, accepts it after; both logged', async () => {
    const alice = await member('Alice');
    const run = await seedEntry(alice.user.id, alice.user.username, 600);
    t.clock.advance(WEEK_MS);
    const admin = await operator(t, 'admin', { passkey: true });
    const other = await operator(t, 'admin', { passkey: true });

    const week = await admin.client.request('GET', consolePaths.prizeWeek);
    expect(week.statusCode, week.body).toBe(200);
    const entry = week
      .json<{ entries: { runId: string; payable: boolean; watched: boolean }[] }>()
      .entries.find((e) => e.runId === run.runId);
    expect(entry).toMatchObject({ payable: true, watched: false });

    const refused = await admin.client.request('POST', runPath(consolePaths.approve, run.runId), {
      body: {},
    });
    expect(refused.statusCode, refused.body).toBe(409);
    expect(refused.json().code).toBe('REPLAY_NOT_WATCHED');

    // "Watched to its end" needs the replay opened at least its length at top speed before.
    const early = await other.client.request('POST', runPath(consolePaths.replayOpened, run.runId));
    expect(early.statusCode).toBe(200);
    const tooSoon = await other.client.request(
      'POST',
      runPath(consolePaths.replayWatched, run.runId),
    );
    expect(tooSoon.statusCode).toBe(409);
    expect(tooSoon.json().code).toBe('REPLAY_NOT_WATCHED');

    // Another admin's watch does not count for this one.
    const otherWatch = await watch(other.client, run.runId, run.run.result.gameTime);
    expect(otherWatch.statusCode, otherWatch.body).toBe(200);
    const still = await admin.client.request('POST', runPath(consolePaths.approve, run.runId), {
      body: {},
    });
    expect(still.json().code).toBe('REPLAY_NOT_WATCHED');
    expect(
      await db().selectFrom('prize_events').select('step').where('step', '=', 'approved').execute(),
    ).toEqual([]);

    const watched = await watch(admin.client, run.runId, run.run.result.gameTime);
    expect(watched.statusCode, watched.body).toBe(200);
    const approved = await admin.client.request('POST', runPath(consolePaths.approve, run.runId), {
      body: {},
    });
    expect(approved.statusCode, approved.body).toBe(200);
    expect(approved.json().message).toContain(`Approved run ${run.runId}`);
    const steps = await db()
      .selectFrom('prize_events')
      .select(['step', 'run_id'])
      .where('step', '=', 'approved')
      .execute();
    expect(steps).toEqual([{ step: 'approved', run_id: run.runId }]);

    // prize:approve's rule: once per week.
    const again = await admin.client.request('POST', runPath(consolePaths.approve, run.runId), {
      body: {},
    });
    expect(again.statusCode).toBe(409);
    expect(again.json().code).toBe('PRIZE_REFUSED');

    const watches = await log(admin.client, 'replay-watched');
    expect(watches.map((e) => [e.targetId, e.operatorName])).toEqual([
      [run.runId, admin.user.username],
      [run.runId, other.user.username],
    ]);
    const approvals = await log(admin.client, 'prize-approve');
    expect(approvals.map((e) => [e.targetId, e.operatorName])).toEqual([
      [run.runId, admin.user.username],
    ]);
  });

  it('a disqualified run leaves the public weekly board; logged with its reason', async () => {
    const bob = await member('Bob');
    const run = await seedEntry(bob.user.id, bob.user.username, 500);
    const visitor = TestClient.inject(t.app);
    expect(await boardIds(visitor)).toContain(run.entryId);

    const admin = await operator(t, 'admin', { passkey: true });
    const res = await disqualify(admin.client, run.runId, 'a script played this run');
    expect(res.statusCode, res.body).toBe(200);
    t.clock.advance(READ_CACHE_LONGEST_MS + 1);
    expect(await boardIds(visitor)).not.toContain(run.entryId);
    // The player sees why, on their run's replay.
    const replay = await visitor.request(
      'GET',
      gamePaths.replay.replace(':entryId', String(run.entryId)),
    );
    expect(replay.statusCode, replay.body).toBe(200);
    expect(replay.json().disqualified).toBe('a script played this run');

    const twice = await disqualify(admin.client, run.runId, 'a script played this run');
    expect(twice.statusCode).toBe(409);
    expect(twice.json().code).toBe('RUN_DISQUALIFIED');
    const unknown = await disqualify(admin.client, 'nope', 'a script played this run');
    expect(unknown.statusCode).toBe(404);

    const logged = await log(admin.client, 'run-disqualify');
    expect(logged.map((e) => [e.targetId, e.reason])).toEqual([
      [run.runId, 'a script played this run'],
    ]);
  });

  it('a disqualification tells open pages to refetch the board, which then leaves the run out', async () => {
    const carol = await member('Carol');
    const run = await seedEntry(carol.user.id, carol.user.username, 400);
    const visitor = TestClient.inject(t.app);
    // Stored around the game's routes: a board cached before it is let go, then read once, so
    // the node holds a board with the run in its cache.
    t.clock.advance(READ_CACHE_LONGEST_MS + 1);
    expect(await boardIds(visitor)).toContain(run.entryId);
    const reader = await EventStreamReader.open(`${await t.listen()}${LIVE_EVENTS_PATH}`);
    const admin = await operator(t, 'admin', { passkey: true });
    const res = await disqualify(admin.client, run.runId, 'played by a bot');
    expect(res.statusCode, res.body).toBe(200);
    const event = await reader.next((e) => e.type === 'leaderboard');
    reader.close();
    expect(event.data).toEqual({ week: new Date(weekStartUtc(t.clock.now())).toISOString() });
    // The page's refetch, at the same moment on the clock: not the cached board.
    expect(await boardIds(visitor)).not.toContain(run.entryId);
  });

  /** A paid-up week of Alice's, ready to approve: her run, watched by a fresh admin. */
  async function watchedWeek() {
    const alice = await member('Alice');
    const run = await seedEntry(alice.user.id, alice.user.username, 600);
    t.clock.advance(WEEK_MS);
    const admin = await operator(t, 'admin', { passkey: true });
    const watched = await watch(admin.client, run.runId, run.run.result.gameTime);
    expect(watched.statusCode, watched.body).toBe(200);
    const approve = (body: { confirmWallet?: string } = {}) =>
      admin.client.request('POST', runPath(consolePaths.approve, run.runId), { body });
    return { alice, run, admin, approve };
  }

  const prizeSteps = async () =>
    (await db().selectFrom('prize_events').select(['id', 'step']).orderBy('id').execute()).map(
      (e) => `${e.id}:${e.step}`,
    );

  it('a page view of Prize week writes nothing to the prize record', async () => {
    const { admin } = await watchedWeek();
    const before = await prizeSteps();
    for (let i = 0; i < 3; i += 1) {
      expect((await admin.client.request('GET', consolePaths.prizeWeek)).statusCode).toBe(200);
    }
    expect(await prizeSteps()).toEqual(before);
  });

  it('a run disqualified after its review cannot be approved', async () => {
    const { admin, run, approve } = await watchedWeek();
    const other = await operator(t, 'admin', { passkey: true });
    const out = await disqualify(other.client, run.runId, 'a bot played this run');
    expect(out.statusCode, out.body).toBe(200);
    const res = await approve();
    expect(res.statusCode).toBe(409);
    expect(res.json().code).toBe('RUN_DISQUALIFIED');
    expect(
      await db()
        .selectFrom('prize_events')
        .select('id')
        .where('step', '=', 'approved')
        .where('run_id', '=', run.runId)
        .execute(),
    ).toEqual([]);
    expect(admin.user.id).not.toBe(other.user.id);
  });

  it('a wallet switched after the watch needs a confirmation naming the new wallet', async () => {
    const { alice, approve } = await watchedWeek();
    const issued = (
      await alice.client.request('POST', walletPaths.challenge)
    ).json<WalletChallenge>();
    const next = new TestWallet();
    const relinked = await alice.client.request('POST', walletPaths.link, {
      body: { ...next.signIn(issued), password: 'password123' },
    });
    expect(relinked.statusCode, relinked.body).toBe(200);
    const silent = await approve();
    expect(silent.statusCode).toBe(409);
    expect(silent.json().message).toContain(`wallet is now ${next.address}`);
    const confirmed = await approve({ confirmWallet: next.address });
    expect(confirmed.statusCode, confirmed.body).toBe(200);
    expect(confirmed.json().message).toContain(`Pay 1 SOL to ${next.address}`);
  });

  it('a suspended member is not payable and cannot be approved', async () => {
    const { alice, admin, approve } = await watchedWeek();
    const suspended = await admin.client.request(
      'POST',
      consolePaths.suspend.replace(':username', alice.user.username),
      { body: { length: 'week', reason: 'vote brigading' } },
    );
    expect(suspended.statusCode, suspended.body).toBe(200);
    const week = (await admin.client.request('GET', consolePaths.prizeWeek)).json<{
      entries: { playerName: string; payable: boolean; why: string | null }[];
    }>();
    expect(week.entries.find((e) => e.playerName === alice.user.username)).toMatchObject({
      payable: false,
      why: 'member is suspended',
    });
    const res = await approve();
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toMatch(/is suspended/);
  });

  it('an approval is withdrawn with a reason and the week goes back to review; disqualifying an approved run withdraws it', async () => {
    const { run, admin, approve } = await watchedWeek();
    expect((await approve()).statusCode).toBe(200);
    const noReason = await admin.client.request('POST', consolePaths.withdraw, { body: {} });
    expect(noReason.statusCode).toBe(400);
    const withdrawn = await admin.client.request('POST', consolePaths.withdraw, {
      body: { reason: 'wrong week read' },
    });
    expect(withdrawn.statusCode, withdrawn.body).toBe(200);
    let week = (await admin.client.request('GET', consolePaths.prizeWeek)).json();
    expect(week.approved).toBeNull();
    const again = await admin.client.request('POST', consolePaths.withdraw, {
      body: { reason: 'twice' },
    });
    expect(again.json().code).toBe('PRIZE_NOT_APPROVED');
    expect((await log(admin.client, 'prize-withdraw')).map((e) => e.reason)).toContain(
      'wrong week read',
    );

    // Approved again, then disqualified: the approval goes in the same step.
    expect((await approve()).statusCode).toBe(200);
    const out = await disqualify(admin.client, run.runId, 'a bot played this run');
    expect(out.statusCode, out.body).toBe(200);
    expect(out.json()).toEqual({ withdrewApproval: true });
    week = (await admin.client.request('GET', consolePaths.prizeWeek)).json();
    expect(week.approved).toBeNull();
    expect(week.entries.map((e: { runId: string }) => e.runId)).not.toContain(run.runId);
  });

  it('an admin cannot approve their own run', async () => {
    const admin = await operator(t, 'admin', { passkey: true });
    const run = await seedEntry(admin.user.id, admin.user.username, 600);
    t.clock.advance(WEEK_MS);
    await db()
      .insertInto('user_wallets')
      .values({
        user_id: admin.user.id,
        address: new TestWallet().address,
        message: 'test',
        signature: 'test',
        linked_at: t.clock.now(),
      })
      .execute();
    expect((await passkeySignIn(admin.client, admin.authenticator)).statusCode).toBe(200);
    expect((await watch(admin.client, run.runId, run.run.result.gameTime)).statusCode).toBe(200);
    const res = await admin.client.request('POST', runPath(consolePaths.approve, run.runId), {
      body: {},
    });
    expect(res.statusCode, res.body).toBe(403);
    expect(res.json().code).toBe('RANK_PROTECTED');
  });

  it('refuses a moderator (ADMIN_ONLY)', async () => {
    const mod = await operator(t, 'moderator', { passkey: true });
    for (const [method, path, body] of [
      ['GET', consolePaths.prizeWeek, undefined],
      ['POST', runPath(consolePaths.replayOpened, 'r'), undefined],
      ['POST', runPath(consolePaths.replayWatched, 'r'), undefined],
      ['POST', consolePaths.withdraw, { reason: 'a second look' }],
      ['POST', runPath(consolePaths.approve, 'r'), {}],
      ['POST', runPath(consolePaths.disqualify, 'r'), { reason: 'a script played this' }],
    ] as const) {
      const res = await mod.client.request(method, path, body ? { body } : {});
      expect(res.statusCode, path).toBe(403);
      expect(res.json().code).toBe('ADMIN_ONLY');
    }
  });
});
