import { describe, expect, it } from 'vitest';
import { MAX_INPUTS } from '#shared/game/constants.ts';
import { DAY_MS, weekStartUtc } from '#shared/time.ts';
import { suiteApp, uniqueName } from '#test-support/test-app.ts';
import { TestClient } from '#test-support/test-client.ts';
import { databaseKinds } from '#test-support/test-database.ts';
import { coinsOf, memberWithCoins } from '#test-support/coins.ts';
import { insertRun, insertScore, runJumps } from './repository.ts';
import {
  play,
  realTimeMs,
  reportPaced,
  scoreBody,
  type PlayedRun,
} from '#test-support/test-play.ts';
import { RUN_TTL_MS } from './runs.ts';
import { gamePaths, memePaths, shopPaths, pathTo } from '#shared/api/paths.ts';

describe.each(databaseKinds)('game runs, scores and coins on %s', (kind) => {
  const t = suiteApp(kind);

  const db = () => t.app.deps.db;
  /** Plays runs out in real time on the app's clock, reporting their progress as a client does. */
  const waitFor = (...runs: PlayedRun[]) => reportPaced(TestClient.inject(t.app), t.clock, runs);

  /** Everything a refused request must leave as it was (it may record the refusal itself). */
  async function snapshot(runId: string) {
    const [scores, ledger, users, run] = await Promise.all([
      db().selectFrom('game_scores').selectAll().orderBy('id').execute(),
      db().selectFrom('coin_ledger').selectAll().orderBy('id').execute(),
      db().selectFrom('users').select(['id', 'coins']).orderBy('id').execute(),
      db()
        .selectFrom('game_runs')
        .select(['score_submitted_at', 'coins_credited', 'coins_credited_at'])
        .where('id', '=', runId)
        .executeTakeFirst(),
    ]);
    return { scores, ledger, users, run };
  }

  async function expectRefused(
    runId: string,
    send: () => ReturnType<TestClient['request']>,
    status: number,
    message: RegExp,
  ) {
    const before = await snapshot(runId);
    const res = await send();
    expect(res.statusCode, res.body).toBe(status);
    expect(res.json<{ message: string }>().message).toMatch(message);
    expect(await snapshot(runId)).toEqual(before);
    return res;
  }

  /** A newly registered member's browser. */
  const newMember = (prefix: string) => memberWithCoins(t, 0, prefix);

  /** A run of `client`'s that collected coins (a few seeds collect none in 1200 steps). */
  async function playWithCoins(client: TestClient): Promise<PlayedRun> {
    let run = await play(client, 1200);
    for (let i = 0; run.result.coins === 0 && i < 5; i++) run = await play(client, 1200);
    expect(run.result.coins).toBeGreaterThan(0);
    return run;
  }

  it('hands out one-time runs with a 32-bit seed', async () => {
    const visitor = TestClient.inject(t.app);
    const a = (await visitor.request('POST', gamePaths.runs)).json<{
      runId: string;
      seed: number;
    }>();
    const b = (await visitor.request('POST', gamePaths.runs)).json<{
      runId: string;
      seed: number;
    }>();
    expect(a.runId).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(a.runId).not.toBe(b.runId);
    expect(Number.isInteger(a.seed) && a.seed >= 0 && a.seed < 2 ** 32).toBe(true);
    const row = await db()
      .selectFrom('game_runs')
      .selectAll()
      .where('id', '=', a.runId)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({
      seed: a.seed,
      user_id: null,
      issued_at: t.clock.now(),
      verified_at: null,
    });
  });

  it('accepts an honest visitor run, without a CSRF token, and lists it', async () => {
    const visitor = TestClient.inject(t.app);
    const run = await play(visitor, 900);
    await waitFor(run);
    const name = uniqueName('Visitor');
    const res = await visitor.request('POST', gamePaths.scores, {
      body: scoreBody(run, `  ${name}  `),
      csrf: false,
    });
    expect(res.statusCode, res.body).toBe(201);
    const entry = res.json<{ entry: Record<string, unknown> }>().entry;
    expect(entry).toEqual({
      id: expect.any(Number),
      playerName: name,
      score: run.result.score,
      level: Math.floor(run.result.score / 10) + 1,
      tasksCompleted: run.result.score,
      createdAt: new Date(t.clock.now()).toISOString(),
    });
    const board = await visitor.request('GET', `${gamePaths.leaderboard}?limit=50`);
    expect(board.json()).toContainEqual(entry);
    const stored = await db()
      .selectFrom('game_runs')
      .selectAll()
      .where('id', '=', run.runId)
      .executeTakeFirstOrThrow();
    expect(await runJumps(db(), run.runId)).toEqual(run.inputs);
    expect(stored.score).toBe(run.result.score);
  });

  it('refuses forged figures and changes nothing; the honest figures still go through', async () => {
    const visitor = TestClient.inject(t.app);
    const run = await play(visitor);
    await waitFor(run);
    const name = uniqueName('Forger');
    for (const forged of [
      { score: run.result.score + 1 },
      { level: run.result.level + 1 },
      { tasksCompleted: run.result.tasksCompleted + 5 },
      { powerUpsCollected: 1 },
      { gameTime: run.result.gameTime + 1 },
      // A different jump log does not replay to the claimed score.
      { inputs: run.inputs.slice(0, Math.max(0, run.inputs.length - 3)) },
    ]) {
      await expectRefused(
        run.runId,
        () => visitor.request('POST', gamePaths.scores, { body: scoreBody(run, name, forged) }),
        422,
        // The first refusal stores the replay's outcome: another jump log is refused at once.
        /do not match the replay|differ from the ones already verified/,
      );
    }
    const ok = await visitor.request('POST', gamePaths.scores, { body: scoreBody(run, name) });
    expect(ok.statusCode, ok.body).toBe(201);
  });

  it('refuses a run sent before it could have been played, and keeps refusing it (no second replay)', async () => {
    const visitor = TestClient.inject(t.app);
    const run = await play(visitor, 1200);
    expect(run.result.steps).toBeGreaterThan(120);
    const body = scoreBody(run, uniqueName('Speedy'));
    const first = await expectRefused(
      run.runId,
      () => visitor.request('POST', gamePaths.scores, { body }),
      422,
      /unranked/,
    );
    // Issue 19, finding 2: the refusal is stored; once the time has passed it still stands.
    t.clock.advance(realTimeMs(run) + 10_000);
    const again = await expectRefused(
      run.runId,
      () => visitor.request('POST', gamePaths.scores, { body }),
      422,
      /unranked/,
    );
    expect(again.json()).toEqual(first.json());
  });

  it('accepts a run only once', async () => {
    const visitor = TestClient.inject(t.app);
    const run = await play(visitor);
    await waitFor(run);
    const body = scoreBody(run, uniqueName('Twice'));
    expect((await visitor.request('POST', gamePaths.scores, { body })).statusCode).toBe(201);
    await expectRefused(
      run.runId,
      () => visitor.request('POST', gamePaths.scores, { body }),
      422,
      /already been submitted/,
    );
  });

  it('lets exactly one of two concurrent submissions of a run win', async () => {
    for (let round = 0; round < 3; round++) {
      const visitor = TestClient.inject(t.app);
      const run = await play(visitor);
      await waitFor(run);
      const body = scoreBody(run, uniqueName('Racer'));
      const results = await Promise.all(
        Array.from({ length: 4 }, () => visitor.request('POST', gamePaths.scores, { body })),
      );
      expect(results.map((r) => r.statusCode).sort()).toEqual([201, 422, 422, 422]);
      const rows = await db()
        .selectFrom('game_scores')
        .select('id')
        .where('run_id', '=', run.runId)
        .execute();
      expect(rows).toHaveLength(1);
    }
  });

  it('refuses unknown, malformed, late and expired runs', async () => {
    const visitor = TestClient.inject(t.app);
    const run = await play(visitor);
    await waitFor(run);
    const name = uniqueName('Odd');
    const unknown = scoreBody(run, name, { runId: 'A'.repeat(22) });
    expect((await visitor.request('POST', gamePaths.scores, { body: unknown })).statusCode).toBe(
      422,
    );
    for (const inputs of [[5, 5], [9, 3], [-1], [1.5], [run.result.steps + 100]]) {
      await expectRefused(
        run.runId,
        () => visitor.request('POST', gamePaths.scores, { body: scoreBody(run, name, { inputs }) }),
        inputs.some((i) => i < 0 || !Number.isInteger(i)) ? 400 : 422,
        /./,
      );
    }
    const tooMany = Array.from({ length: MAX_INPUTS + 1 }, (_, i) => i);
    const big = await visitor.request('POST', gamePaths.scores, {
      body: scoreBody(run, name, { inputs: tooMany }),
    });
    expect(big.statusCode).toBe(400);
    expect(big.json<{ message: string }>().message).toMatch(/At most/);
    // A full-size jump log fits the route's body limit and is judged by the replay.
    const full = await visitor.request('POST', gamePaths.scores, {
      body: scoreBody(run, name, { inputs: tooMany.slice(0, MAX_INPUTS).map((i) => i * 5) }),
    });
    expect(full.statusCode).toBe(422);

    const stale = await play(visitor);
    t.clock.advance(RUN_TTL_MS + 1);
    await expectRefused(
      stale.runId,
      () => visitor.request('POST', gamePaths.scores, { body: scoreBody(stale, name) }),
      422,
      /expired/,
    );
  });

  it('refuses a score or coins sent after the run expired, even for a run already replayed', async () => {
    const { client: member } = await newMember('Keeper');
    const coinRun = await playWithCoins(member);
    await waitFor(coinRun);
    // The coins are saved at once (the run is now replayed); the score is kept back...
    const saved = await member.request('POST', gamePaths.coins, {
      body: { amount: coinRun.result.coins, runId: coinRun.runId, inputs: coinRun.inputs },
    });
    expect(saved.statusCode, saved.body).toBe(200);
    const scoreRun = await playWithCoins(member);
    await waitFor(scoreRun);
    const scored = await member.request('POST', gamePaths.scores, {
      body: scoreBody(scoreRun, 'x'),
    });
    expect(scored.statusCode, scored.body).toBe(201);
    // ...and the score of the one, the coins of the other, come a week later.
    t.clock.advance(7 * 24 * 60 * 60 * 1000);
    await expectRefused(
      coinRun.runId,
      () => member.request('POST', gamePaths.scores, { body: scoreBody(coinRun, 'x') }),
      422,
      /expired/,
    );
    await expectRefused(
      scoreRun.runId,
      () =>
        member.request('POST', gamePaths.coins, {
          body: { amount: scoreRun.result.coins, runId: scoreRun.runId },
        }),
      422,
      /expired/,
    );
  });

  it('validates and trims the player name', async () => {
    const visitor = TestClient.inject(t.app);
    const run = await play(visitor);
    await waitFor(run);
    for (const playerName of [
      '',
      '   ',
      'x'.repeat(33),
      'a\u001b[2Jb',
      'tab\there',
      'evil\u202Eman',
    ]) {
      const res = await visitor.request('POST', gamePaths.scores, {
        body: scoreBody(run, 'x', { playerName }),
      });
      expect(res.statusCode).toBe(400);
    }
    const res = await visitor.request('POST', gamePaths.scores, {
      body: scoreBody(run, ` ${'y'.repeat(32)} `),
    });
    expect(res.statusCode).toBe(201);
    expect(res.json<{ entry: { playerName: string } }>().entry.playerName).toBe('y'.repeat(32));
  });

  it("forces a member's name to their username and keeps visitors off members' names", async () => {
    const { client: member, user } = await newMember('Member');
    const run = await play(member);
    await waitFor(run);
    const res = await member.request('POST', gamePaths.scores, {
      body: scoreBody(run, 'Someone Else'),
    });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json<{ entry: { playerName: string } }>().entry.playerName).toBe(user.username);

    const visitor = TestClient.inject(t.app);
    const visitorRun = await play(visitor);
    await waitFor(visitorRun);
    await expectRefused(
      visitorRun.runId,
      () =>
        visitor.request('POST', gamePaths.scores, {
          body: scoreBody(visitorRun, user.username.toUpperCase()),
        }),
      422,
      /belongs to a registered member/,
    );
    // Another member may not submit this member's run.
    const { client: other } = await newMember('Other');
    const memberRun = await play(member);
    await waitFor(memberRun);
    await expectRefused(
      memberRun.runId,
      () => other.request('POST', gamePaths.scores, { body: scoreBody(memberRun, 'x') }),
      403,
      /another player/,
    );
  });

  it("credits a member's verified coins once and refuses inflated or repeated claims", async () => {
    const { client: member, user } = await newMember('Coins');
    const run = await playWithCoins(member);
    await waitFor(run);
    expect(
      (await member.request('POST', gamePaths.scores, { body: scoreBody(run, 'x') })).statusCode,
    ).toBe(201);

    await expectRefused(
      run.runId,
      () =>
        member.request('POST', gamePaths.coins, {
          body: { amount: run.result.coins + 1, runId: run.runId },
        }),
      422,
      new RegExp(`collected ${run.result.coins} coin`),
    );
    const ok = await member.request('POST', gamePaths.coins, {
      body: { amount: run.result.coins, runId: run.runId },
    });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json()).toEqual({ coinsAdded: run.result.coins, balance: run.result.coins });
    expect(await coinsOf(db(), user.id)).toBe(run.result.coins);

    await expectRefused(
      run.runId,
      () => member.request('POST', gamePaths.coins, { body: { amount: 1, runId: run.runId } }),
      422,
      /already been saved/,
    );
    // Without a CSRF token the mutation is refused before anything is read.
    const noToken = await member.request('POST', gamePaths.coins, {
      body: { amount: 1, runId: run.runId },
      csrf: false,
    });
    expect(noToken.statusCode).toBe(403);
  });

  it('answers a visitor on a member route with 401 before looking at the body', async () => {
    const visitor = TestClient.inject(t.app);
    for (const [method, url] of [
      ['POST', gamePaths.coins],
      ['POST', memePaths.create],
      ['PUT', memePaths.memeImages],
      ['POST', '/api/characters/no-such-key!/purchase'],
      ['POST', pathTo(shopPaths.select, { key: 'x' })],
    ] as const) {
      const res = await visitor.request(method, url);
      expect(res.statusCode, `${method} ${url}`).toBe(401);
      expect(res.json<{ message: string }>().message).toMatch(/log in/i);
    }
  });

  it('refuses coin claims from visitors, for visitor runs and for other members', async () => {
    const visitor = TestClient.inject(t.app);
    const visitorRun = await play(visitor, 1200);
    const { client: member } = await newMember('Claimer');
    const { client: owner } = await newMember('Owner');
    const ownerRun = await play(owner, 1200);
    await waitFor(visitorRun, ownerRun);
    for (const [claimer, run, status, message] of [
      [visitor, visitorRun, 401, /log in/i],
      [member, visitorRun, 403, /started while logged in/],
      [member, ownerRun, 403, /another player/],
    ] as const) {
      await expectRefused(
        run.runId,
        () =>
          claimer.request('POST', gamePaths.coins, {
            body: { amount: 1, runId: run.runId, inputs: run.inputs },
          }),
        status,
        message,
      );
    }
  });

  it('verifies coins from the jump log when the score was not submitted', async () => {
    const { client: member, user } = await newMember('Direct');
    const run = await playWithCoins(member);
    const body = { amount: run.result.coins, runId: run.runId, inputs: run.inputs };
    await expectRefused(
      run.runId,
      () => member.request('POST', gamePaths.coins, { body: { amount: 1, runId: run.runId } }),
      422,
      /Send the jumps/,
    );
    await waitFor(run);
    const ok = await member.request('POST', gamePaths.coins, { body });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(await coinsOf(db(), user.id)).toBe(run.result.coins);
    // The run's outcome is now fixed: a score with another jump log is refused, the same one accepted.
    const other = scoreBody(run, 'x', { inputs: run.inputs.slice(1) });
    await expectRefused(
      run.runId,
      () => member.request('POST', gamePaths.scores, { body: other }),
      422,
      /differ/,
    );
    expect(
      (await member.request('POST', gamePaths.scores, { body: scoreBody(run, 'x') })).statusCode,
    ).toBe(201);
  });

  it('credits concurrent coin claims of one run exactly once', async () => {
    const { client: member, user } = await newMember('Greedy');
    const run = await playWithCoins(member);
    await waitFor(run);
    const body = { amount: run.result.coins, runId: run.runId, inputs: run.inputs };
    const results = await Promise.all(
      Array.from({ length: 4 }, () => member.request('POST', gamePaths.coins, { body })),
    );
    expect(results.map((r) => r.statusCode).sort()).toEqual([200, 422, 422, 422]);
    expect(await coinsOf(db(), user.id)).toBe(run.result.coins);
  });

  it('saves coins for one game at a time: of overlapping runs only one pays, even saved at once', async () => {
    const { client: member, user } = await newMember('Bot');
    const save = (run: PlayedRun) =>
      member.request('POST', gamePaths.coins, {
        body: { amount: run.result.coins, runId: run.runId, inputs: run.inputs },
      });
    const [a, b] = [await playWithCoins(member), await playWithCoins(member)];
    await waitFor(a, b);
    const results = await Promise.all([save(a), save(b)]);
    expect(results.map((r) => r.statusCode).sort()).toEqual([200, 422]);
    const refused = results.find((r) => r.statusCode === 422)!;
    expect(refused.json()).toMatchObject({ code: 'RUN_OVERLAPS' });
    const paid = results[0]!.statusCode === 200 ? a : b;
    expect(await coinsOf(db(), user.id)).toBe(paid.result.coins);

    // The next game, started after the saved one ended, pays as usual.
    t.clock.advance(1000);
    const c = await playWithCoins(member);
    await waitFor(c);
    expect((await save(c)).statusCode).toBe(200);
    expect(await coinsOf(db(), user.id)).toBe(paid.result.coins + c.result.coins);
  });

  it('rate limits new runs per visitor address', async () => {
    const before = await db().selectFrom('game_runs').select('id').execute();
    const browser = TestClient.inject(t.app);
    const headers = {
      'x-csrf-token': await browser.token(),
      cookie: browser.cookieHeader(),
    };
    let limited = null;
    let issued = 0;
    for (let i = 0; i < 60 && !limited; i++) {
      // Each run left after its countdown, so that runs still open never reach their own cap.
      t.clock.advance(1200);
      const res = await t.app.inject({
        method: 'POST',
        url: gamePaths.runs,
        remoteAddress: '203.0.113.9',
        headers,
      });
      if (res.statusCode === 429) limited = res;
      else {
        expect(res.statusCode).toBe(201);
        issued += 1;
      }
    }
    expect(limited?.headers['retry-after']).toMatch(/^\d+$/);
    expect(issued).toBe(40);
    expect(await db().selectFrom('game_runs').select('id').execute()).toHaveLength(
      before.length + issued,
    );
  });

  it('rate limits coin saves per member, before any replay', async () => {
    const { client: member } = await newMember('Saver');
    const statuses: number[] = [];
    for (let i = 0; i < 61; i++) {
      const res = await member.request('POST', gamePaths.coins, {
        body: { amount: 1, runId: 'x'.repeat(22), inputs: [] },
      });
      statuses.push(res.statusCode);
      if (res.statusCode === 429) {
        expect(res.json()).toMatchObject({ code: 'RATE_LIMITED' });
        expect(res.headers['retry-after']).toMatch(/^\d+$/);
      }
    }
    expect(statuses.slice(0, 60).every((status) => status !== 429)).toBe(true);
    expect(statuses[60]).toBe(429);
  });
});

describe.each(databaseKinds)('weekly leaderboard on %s', (kind) => {
  const t = suiteApp(kind);

  async function submit(client: TestClient, name: string, target: number) {
    const run = await play(client, target);
    await reportPaced(TestClient.inject(t.app), t.clock, run);
    const res = await client.request('POST', gamePaths.scores, { body: scoreBody(run, name) });
    expect(res.statusCode, res.body).toBe(201);
    return res.json<{ entry: { id: number; score: number; playerName: string } }>().entry;
  }

  let seeded = 0;
  /** A stored entry with chosen figures (the SQL ranking is what is under test here). */
  async function seedEntry(
    playerKey: string,
    playerName: string,
    score: number,
    createdAt: number,
  ) {
    const runId = `seeded-run-${kind}-${++seeded}`.padEnd(22, 'x');
    await insertRun(t.app.deps.db, { id: runId, seed: 1, userId: null, issuedAt: createdAt });
    return insertScore(t.app.deps.db, {
      runId,
      userId: null,
      playerKey,
      playerName,
      score,
      level: Math.floor(score / 10) + 1,
      tasksCompleted: score,
      powerUpsCollected: 0,
      gameTime: 1,
      weekStart: weekStartUtc(createdAt),
      createdAt,
    });
  }

  it("lists this week's best entry per player, best first, ties to the earlier", async () => {
    const now = t.clock.now();
    const aliceLow = await seedEntry('n:alice', 'Alice', 40, now - 5000);
    const aliceHigh = await seedEntry('n:alice', 'alice', 90, now - 4000);
    const aliceTieLater = await seedEntry('n:alice', 'ALICE', 90, now - 1000);
    const bob = await seedEntry('n:bob', 'Bob', 70, now - 3000);
    const dave = await seedEntry('n:dave', 'Dave', 70, now - 2000);
    const lastWeek = await seedEntry('n:erin', 'Erin', 500, weekStartUtc(now) - 1);
    for (let i = 0; i < 6; i++) await seedEntry(`n:filler${i}`, `Filler ${i}`, 10 + i, now - 100);

    const client = TestClient.inject(t.app);
    const board = (await client.request('GET', `${gamePaths.leaderboard}?limit=50`)).json<
      Array<{ id: number; playerName: string; score: number; createdAt: string }>
    >();
    expect(board.slice(0, 3).map((e) => e.id)).toEqual([aliceHigh, bob, dave]);
    expect(board[0]).toMatchObject({
      playerName: 'alice',
      score: 90,
      createdAt: new Date(now - 4000).toISOString(),
    });
    const ids = board.map((e) => e.id);
    expect(ids).not.toContain(aliceLow);
    expect(ids).not.toContain(aliceTieLater);
    expect(ids).not.toContain(lastWeek);
    expect(board).toHaveLength(9);

    const top = (await client.request('GET', gamePaths.leaderboard)).json<Array<{ id: number }>>();
    expect(top.map((e) => e.id)).toEqual(ids.slice(0, 5));
    expect((await client.request('GET', `${gamePaths.leaderboard}?limit=51`)).statusCode).toBe(400);
    expect((await client.request('GET', `${gamePaths.leaderboard}?limit=0`)).statusCode).toBe(400);
  });

  it('ranks a member once whatever names their runs were sent with', async () => {
    const { client: member, user } = await memberWithCoins(t, 0, 'Carol');
    const first = await submit(member, 'ignored', 600);
    const second = await submit(member, 'also ignored', 120);
    const best = first.score >= second.score ? first : second;
    const board = (await member.request('GET', `${gamePaths.leaderboard}?limit=50`)).json<
      Array<{ id: number; playerName: string }>
    >();
    expect(board.filter((e) => e.playerName === user.username).map((e) => e.id)).toEqual([best.id]);
  });

  it('starts a new week at Monday 00:00 UTC', async () => {
    const visitor = TestClient.inject(t.app);
    await submit(visitor, 'Before', 300);
    expect(
      (await visitor.request('GET', `${gamePaths.leaderboard}?limit=50`)).json<unknown[]>().length,
    ).toBeGreaterThan(0);
    // The test clock starts on a Wednesday; move to the next Monday 00:00 UTC.
    const now = t.clock.now();
    const day = Math.floor(now / DAY_MS);
    const daysToMonday = (7 - ((day + 3) % 7)) % 7 || 7;
    t.clock.advance((day + daysToMonday) * DAY_MS - now);
    expect(new Date(t.clock.now()).toISOString()).toMatch(/T00:00:00.000Z$/);
    expect(new Date(t.clock.now()).getUTCDay()).toBe(1);
    expect((await visitor.request('GET', gamePaths.leaderboard)).json()).toEqual([]);
    const fresh = await submit(visitor, 'After', 300);
    expect(
      (await visitor.request('GET', gamePaths.leaderboard))
        .json<Array<{ id: number }>>()
        .map((e) => e.id),
    ).toEqual([fresh.id]);
  });
});
