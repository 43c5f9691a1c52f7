import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { progressPath } from '#shared/api/game.ts';
import { gamePaths } from '#shared/api/paths.ts';
import { MAX_STEPS } from '#shared/game/constants.ts';
import {
  MAX_JUMPS_PER_REPORT,
  maxJumpsBy,
  REPORT_INTERVAL_MS,
  ROUND_START_DELAY_MS,
} from '#shared/game/pacing.ts';
import { createTestApp, suiteApp, uniqueName } from '#test-support/test-app.ts';
import { TestClient, type RequestOptions } from '#test-support/test-client.ts';
import { databaseKinds } from '#test-support/test-database.ts';
import { play, reportPaced, scoreBody, unplayedScoreBody } from '#test-support/test-play.ts';
import { OPEN_RUNS_PER_NETWORK } from './runs.ts';

const randomRunId = () => randomBytes(16).toString('base64url');

/**
 * Progress reports (issue 30, findings 2 and 8; docs/decisions/018): counted per network before
 * the body is read, for runs that exist; bounded in size, in jumps and in open runs; appended,
 * never rewritten; and a member's run moves only with that member's session. The callers are
 * IPv6 clients as a trusted proxy reports them.
 */
describe.each(databaseKinds)('progress reports on %s', (kind) => {
  const t = suiteApp(kind, { trustProxy: 1 });
  const db = () => t.app.deps.db;

  /** A browser whose requests the proxy forwards from `address`. */
  function browser(address: string, client = TestClient.inject(t.app)) {
    const send = (method: 'POST' | 'GET', path: string, options: RequestOptions = {}) =>
      client.request(method, path, {
        ...options,
        headers: { ...options.headers, 'x-forwarded-for': address },
      });
    return {
      client,
      async issue(): Promise<string> {
        const res = await send('POST', gamePaths.runs);
        expect(res.statusCode, res.body).toBe(201);
        return res.json<{ runId: string }>().runId;
      },
      report: (runId: string, body: unknown) => send('POST', progressPath(runId), { body }),
      send,
    };
  }

  /** The clock at `seconds` of play into a round issued at `issuedAt`. */
  const playAt = (issuedAt: number, seconds: number) =>
    t.clock.advance(issuedAt + ROUND_START_DELAY_MS + seconds * REPORT_INTERVAL_MS - t.clock.now());

  const runRow = (runId: string) =>
    db()
      .selectFrom('game_runs')
      .select(['progress_step', 'progress_at', 'jump_count', 'refused_at', 'refusal_code'])
      .where('id', '=', runId)
      .executeTakeFirstOrThrow();
  const chunks = (runId: string) =>
    db()
      .selectFrom('run_jumps')
      .select(['first_step', 'jumps'])
      .where('run_id', '=', runId)
      .orderBy('first_step')
      .execute();
  const limiterRows = async (like = '%') =>
    Number(
      (
        await db()
          .selectFrom('rate_limits')
          .select((eb) => eb.fn.countAll<number | string>().as('n'))
          .where('key', 'like', like)
          .executeTakeFirstOrThrow()
      ).n,
    );

  it('refuses reports for made-up run ids without writing a limiter row, then with 429', async () => {
    const caller = browser('2001:db8:200::1');
    await caller.client.token();
    const rowsBefore = await limiterRows();
    const statuses: number[] = [];
    for (let i = 0; i < 70; i++) {
      const res = await caller.send('POST', progressPath(randomRunId()), {
        body: { step: 60, jumps: [] },
        headers: { 'x-forwarded-for': `2001:db8:200::${(i + 1).toString(16)}` },
      });
      statuses.push(res.statusCode);
    }
    expect(statuses.slice(0, 60).every((s) => s === 422)).toBe(true);
    expect(statuses.slice(60).every((s) => s === 429)).toBe(true);
    expect(await limiterRows()).toBe(rowsBefore);
    // Another network is not held back by this one's misses.
    const other = await browser('2001:db8:201::1').report(randomRunId(), { step: 60, jumps: [] });
    expect(other.json<{ code: string }>().code).toBe('RUN_UNKNOWN');
  });

  it("counts one network's reports under one key, whatever the run, and stops them at the limit", async () => {
    const caller = (n: number) => browser(`2001:db8:202:0:${n.toString(16)}::1`);
    const issuedAt = t.clock.now();
    const runs = [await caller(1).issue(), await caller(2).issue(), await caller(3).issue()];
    playAt(issuedAt, 1);
    for (const [i, runId] of runs.entries()) {
      expect((await caller(i + 10).report(runId, { step: 60, jumps: [] })).statusCode).toBe(200);
    }
    // One key per width of the network: its /64 and its /48 (docs/decisions/018).
    expect(await limiterRows('game-progress:%')).toBe(2);
    const limit = OPEN_RUNS_PER_NETWORK * 72;
    const statuses: number[] = [];
    for (let i = runs.length; i <= limit; i++) {
      // A resend of the step already held: answered without a write, still counted.
      statuses.push((await caller(i).report(runs[i % 3]!, { step: 60, jumps: [] })).statusCode);
    }
    expect(statuses.slice(0, -1).every((s) => s === 200)).toBe(true);
    expect(statuses.at(-1)).toBe(429);
    expect(await limiterRows('game-progress:%')).toBe(2);
  });

  it('refuses a body larger than the biggest report unread (413), and changes nothing', async () => {
    const caller = browser('2001:db8:203::1');
    const runId = await caller.issue();
    playAt(t.clock.now(), 1);
    const jumps = Array.from({ length: 400 }, (_, i) => 10_000 + i);
    const body = JSON.stringify({ step: 60, jumps });
    expect(body.length).toBeGreaterThan(2048);
    const res = await caller.send('POST', progressPath(runId), { body });
    expect(res.statusCode).toBe(413);
    expect(res.json<{ code: string }>().code).toBe('PAYLOAD_TOO_LARGE');
    expect(await runRow(runId)).toMatchObject({ progress_step: 0, refused_at: null });
    // The largest body the schema accepts still fits: it is read and answered on its merits.
    const widest = Array.from({ length: MAX_JUMPS_PER_REPORT }, (_, i) => MAX_STEPS - 1000 + i);
    const fits = await caller.report(runId, { step: MAX_STEPS, jumps: widest });
    expect(fits.statusCode).not.toBe(413);
  });

  it('caps the jumps of one report and of a whole run at the jump rate', async () => {
    const caller = browser('2001:db8:204::1');
    const issuedAt = t.clock.now();
    const [tooMany, everyStep, paced] = [
      await caller.issue(),
      await caller.issue(),
      await caller.issue(),
    ];
    playAt(issuedAt, 1);

    const overReport = Array.from({ length: MAX_JUMPS_PER_REPORT + 1 }, (_, i) => i);
    const res = await caller.report(tooMany, { step: 60, jumps: overReport });
    expect(res.statusCode).toBe(400);
    expect(await runRow(tooMany)).toMatchObject({ progress_step: 0, refused_at: null });

    // A jump at every step: nobody plays like that.
    const all = Array.from({ length: 60 }, (_, i) => i);
    const refused = await caller.report(everyStep, { step: 60, jumps: all });
    expect(refused.statusCode).toBe(422);
    expect(refused.json<{ code: string }>().code).toBe('RUN_TOO_MANY_JUMPS');
    expect(await runRow(everyStep)).toMatchObject({ refusal_code: 'RUN_TOO_MANY_JUMPS' });
    expect(await chunks(everyStep)).toEqual([]);

    // The run's allowance grows with its steps; each report may use it, none may pass it.
    const first = Array.from({ length: maxJumpsBy(60) }, (_, i) => i * 2);
    expect((await caller.report(paced, { step: 60, jumps: first })).statusCode).toBe(200);
    playAt(issuedAt, 2);
    const room = maxJumpsBy(120) - first.length;
    const second = Array.from({ length: room + 1 }, (_, i) => 60 + i * 4);
    const over = await caller.report(paced, { step: 120, jumps: second });
    expect(over.json<{ code: string }>().code).toBe('RUN_TOO_MANY_JUMPS');
    expect(await runRow(paced)).toMatchObject({ progress_step: 60, jump_count: first.length });
  });

  it('caps the runs one network has open at once', async () => {
    const caller = (n: number) => browser(`2001:db8:205:0:${n.toString(16)}::1`);
    for (let i = 0; i < OPEN_RUNS_PER_NETWORK; i++) await caller(i + 1).issue();
    const refused = await caller(99).send('POST', gamePaths.runs);
    expect(refused.statusCode).toBe(429);
    expect(refused.json<{ code: string }>().code).toBe('RUNS_OPEN');
    expect(refused.headers['retry-after']).toMatch(/^\d+$/);
    // Another /64 is another client.
    await browser('2001:db8:205:1::1').issue();
    // Runs that stopped reporting can report no more: they no longer count.
    t.clock.advance(ROUND_START_DELAY_MS + 6 * REPORT_INTERVAL_MS + 1);
    await caller(100).issue();
  });

  it('appends each report as a chunk, and keeps the verified log as one', async () => {
    const caller = browser('2001:db8:206::1');
    const issuedAt = t.clock.now();
    const runId = await caller.issue();
    playAt(issuedAt, 1);
    expect((await caller.report(runId, { step: 60, jumps: [10, 40] })).statusCode).toBe(200);
    const firstChunk = await chunks(runId);
    playAt(issuedAt, 2);
    expect((await caller.report(runId, { step: 120, jumps: [] })).statusCode).toBe(200);
    playAt(issuedAt, 3);
    // A resent jump before the step held is dropped.
    expect((await caller.report(runId, { step: 180, jumps: [40, 150] })).statusCode).toBe(200);
    expect(await chunks(runId)).toEqual([...firstChunk, { first_step: 120, jumps: '150' }]);
    expect(firstChunk).toEqual([{ first_step: 0, jumps: '10,40' }]);
    expect(await runRow(runId)).toMatchObject({ progress_step: 180, jump_count: 3 });

    const visitor = TestClient.inject(t.app);
    const run = await play(visitor, 900, t.clock);
    await reportPaced(visitor, t.clock, run);
    expect((await chunks(run.runId)).length).toBeGreaterThan(1);
    const res = await visitor.request('POST', gamePaths.scores, {
      body: scoreBody(run, uniqueName('chunk')),
    });
    expect(res.statusCode, res.body).toBe(201);
    expect(await chunks(run.runId)).toEqual([{ first_step: 0, jumps: run.inputs.join(',') }]);
    const replay = await visitor.request('GET', `/api/leaderboard/${res.json().entry.id}/replay`);
    expect(replay.json<{ inputs: number[] }>().inputs).toEqual(run.inputs);
  });

  it("moves a member's run only with that member's session", async () => {
    const owner = browser('2001:db8:207::1');
    await owner.client.register(uniqueName('owner'));
    const signedOut = browser('2001:db8:208::1');
    const stranger = browser('2001:db8:209::1');
    await stranger.client.register(uniqueName('stranger'));
    const issuedAt = t.clock.now();
    const runId = await owner.issue();
    playAt(issuedAt, 1);
    const before = await runRow(runId);
    // Far ahead of the clock: had it been taken, the run would be refused as RUN_AHEAD.
    for (const caller of [signedOut, stranger]) {
      const res = await caller.report(runId, { step: 3000, jumps: [] });
      expect(res.statusCode).toBe(403);
      expect(res.json<{ code: string }>().code).toBe('RUN_NOT_YOURS');
      const score = await caller.send('POST', gamePaths.scores, {
        body: unplayedScoreBody(runId, 'x'),
      });
      expect(score.statusCode).toBe(403);
      expect(score.json<{ code: string }>().code).toBe('RUN_NOT_YOURS');
    }
    expect(await runRow(runId)).toEqual(before);
    expect((await owner.report(runId, { step: 60, jumps: [] })).statusCode).toBe(200);
  });
});

describe('request logs', () => {
  it('never carry a run id', async () => {
    const lines: string[] = [];
    const t = await createTestApp(
      'sqlite',
      {},
      {
        level: 'info',
        stream: { write: (line: string) => lines.push(line) },
      },
    );
    try {
      const client = TestClient.inject(t.app);
      const issued = await client.request('POST', gamePaths.runs);
      const { runId } = issued.json<{ runId: string }>();
      const made = randomRunId();
      // Both refused, so both logged at info.
      await client.request('POST', progressPath(runId), { body: { step: 3000, jumps: [] } });
      await client.request('POST', progressPath(made), { body: { step: 60, jumps: [] } });
      const logged = lines.join('\n');
      expect(logged).toContain('/api/game-runs/[run]/progress');
      expect(logged).not.toContain(runId);
      expect(logged).not.toContain(made);
    } finally {
      await t.close();
    }
  });
});
