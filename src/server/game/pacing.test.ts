import { describe, expect, it } from 'vitest';
import { progressPath, replayPath, type ReplayResponse } from '#shared/api/game.ts';
import { STEP_MS } from '#shared/game/constants.ts';
import {
  BEHIND_TOLERANCE_MS,
  MAX_REPORT_GAP_MS,
  REPORT_INTERVAL_MS,
  ROUND_START_DELAY_MS,
} from '#shared/game/pacing.ts';
import { simulate } from '#shared/game/simulate.ts';
import { progressReports } from '#test-support/honest-run.ts';
import { suiteApp, uniqueName } from '#test-support/test-app.ts';
import { TestClient } from '#test-support/test-client.ts';
import { databaseKinds } from '#test-support/test-database.ts';
import { coinsOf } from '#test-support/coins.ts';
import { play, reportPaced, scoreBody, type PlayedRun } from '#test-support/test-play.ts';
import { runStatisticsByRunId } from './repository.ts';
import { gamePaths } from '#shared/api/paths.ts';

// Issue 21, deliverable 1: runs paced in real time. Each test plays the server's clock forward
// as a client's reports would arrive, and checks what the run earns.

describe.each(databaseKinds)('runs paced in real time on %s', (kind) => {
  const t = suiteApp(kind);

  const db = () => t.app.deps.db;

  /** What a refused run must leave as it was: scores, the ledger and balances. */
  async function valuables() {
    const [scores, ledger, users] = await Promise.all([
      db().selectFrom('game_scores').selectAll().orderBy('id').execute(),
      db().selectFrom('coin_ledger').selectAll().orderBy('id').execute(),
      db().selectFrom('users').select(['id', 'coins']).orderBy('id').execute(),
    ]);
    return { scores, ledger, users };
  }

  /** A member's run of about 20 s that collects coins. */
  async function memberRun(client: TestClient): Promise<PlayedRun> {
    let run = await play(client, 1200, t.clock);
    for (let i = 0; run.result.coins === 0 && i < 5; i++) run = await play(client, 1200, t.clock);
    expect(run.result.coins).toBeGreaterThan(0);
    return run;
  }

  const report = (client: TestClient, runId: string, body: { step: number; jumps: number[] }) =>
    client.request('POST', progressPath(runId), { body });

  /** Sends the score and the coins: both must be refused with `message`, changing nothing. */
  async function expectUnranked(client: TestClient, run: PlayedRun, message: RegExp) {
    const before = await valuables();
    const score = await client.request('POST', gamePaths.scores, {
      body: scoreBody(run, 'ignored'),
    });
    expect(score.statusCode, score.body).toBe(422);
    expect(score.json<{ message: string }>().message).toMatch(message);
    const coins = await client.request('POST', gamePaths.coins, {
      body: { amount: run.result.coins, runId: run.runId, inputs: run.inputs },
    });
    expect(coins.statusCode, coins.body).toBe(422);
    expect(coins.json()).toEqual(score.json());
    expect(await valuables()).toEqual(before);
  }

  it('ranks an honest round whose reports arrive late and bunched over a poor connection', async () => {
    const member = TestClient.inject(t.app);
    const user = await member.register(uniqueName('Jittery'));
    const run = await memberRun(member);
    // Up to four seconds late, varying from report to report: later reports queue behind.
    const delays = [0, 3900, 200, 0, 2500, 4000, 100, 1200];
    await reportPaced(member, t.clock, run, (n) => delays[n % delays.length]!);
    const res = await member.request('POST', gamePaths.scores, {
      body: scoreBody(run, 'ignored'),
    });
    expect(res.statusCode, res.body).toBe(201);
    const coins = await member.request('POST', gamePaths.coins, {
      body: { amount: run.result.coins, runId: run.runId, inputs: run.inputs },
    });
    expect(coins.statusCode, coins.body).toBe(200);
    expect(await coinsOf(db(), user.id)).toBe(run.result.coins);
    // The reviewer's figures were stored with the entry.
    const stats = (await runStatisticsByRunId(db(), [run.runId])).get(run.runId);
    expect(stats?.jumps).toBe(run.inputs.length);
  });

  it('ranks a round whose report is sent again after a lost answer', async () => {
    const visitor = TestClient.inject(t.app);
    const run = await play(visitor, 300, t.clock);
    const [first, ...rest] = progressReports(run);
    t.clock.advance(first!.atMs);
    expect((await report(visitor, run.runId, first!.body)).statusCode).toBe(200);
    // The answer was lost: the client sends the same report again, then goes on from there.
    const again = await report(visitor, run.runId, first!.body);
    expect(again.statusCode).toBe(200);
    expect(again.json()).toEqual({ step: first!.body.step });
    for (const next of rest) {
      t.clock.advance(run.issuedAt! + next.atMs - t.clock.now());
      // Each report repeats the jumps of the one before, as after a lost answer.
      const jumps = run.inputs.filter((s) => s < next.body.step);
      expect((await report(visitor, run.runId, { step: next.body.step, jumps })).statusCode).toBe(
        200,
      );
    }
    const res = await visitor.request('POST', gamePaths.scores, {
      body: scoreBody(run, uniqueName('Resent')),
    });
    expect(res.statusCode, res.body).toBe(201);
  });

  it('ends a slowed round as unranked at the report that falls behind, and keeps it so', async () => {
    const member = TestClient.inject(t.app);
    await member.register(uniqueName('Slowed'));
    const run = await memberRun(member);
    // The game runs at 70 % of real time: each report a second apart covers 0.7 s of play.
    const started = run.issuedAt! + ROUND_START_DELAY_MS;
    let refused: { statusCode: number; body: string } | null = null;
    for (let second = 1; refused === null && second < 60; second++) {
      t.clock.advance(started + second * REPORT_INTERVAL_MS - t.clock.now());
      const step = Math.floor((second * REPORT_INTERVAL_MS * 0.7) / STEP_MS);
      const res = await report(member, run.runId, {
        step,
        jumps: run.inputs.filter((s) => s < step),
      });
      if (res.statusCode !== 200) refused = res;
    }
    expect(refused?.statusCode).toBe(422);
    expect(JSON.parse(refused!.body)).toMatchObject({ code: 'RUN_BEHIND' });
    // Falling behind by more than the tolerance takes tolerance / 0.3 seconds at 70 %.
    expect(t.clock.now() - started).toBeGreaterThan(BEHIND_TOLERANCE_MS / 0.3 - 1000);
    expect(t.clock.now() - started).toBeLessThan(BEHIND_TOLERANCE_MS / 0.3 + 2000);
    await expectUnranked(member, run, /unranked: the game fell more than 5 s behind/);
    // Later reports get the same answer.
    const later = await report(member, run.runId, { step: run.result.steps, jumps: run.inputs });
    expect(later.statusCode).toBe(422);
    expect(later.body).toBe(refused!.body);
  });

  it('ends a paused round as unranked when it reports again', async () => {
    const visitor = TestClient.inject(t.app);
    await visitor.register(uniqueName('Member'));
    const run = await memberRun(visitor);
    const [first, second] = progressReports(run);
    t.clock.advance(first!.atMs);
    expect((await report(visitor, run.runId, first!.body)).statusCode).toBe(200);
    // Paused in the debugger: the next report comes too late, however on time its step looks.
    t.clock.advance(MAX_REPORT_GAP_MS + 1);
    const step = Math.floor((t.clock.now() - run.issuedAt! - ROUND_START_DELAY_MS) / STEP_MS);
    const res = await report(visitor, run.runId, {
      step: Math.max(step, second!.body.step),
      jumps: run.inputs.filter((s) => s < step),
    });
    expect(res.statusCode).toBe(422);
    expect(res.json()).toMatchObject({ code: 'RUN_SILENT' });
    await expectUnranked(visitor, run, /stopped reporting its progress/);
  });

  it('ends a sped-up round as unranked', async () => {
    const visitor = TestClient.inject(t.app);
    await visitor.register(uniqueName('Member'));
    const run = await memberRun(visitor);
    t.clock.advance(ROUND_START_DELAY_MS + 3000);
    // Five seconds of play three seconds into the round.
    const step = Math.floor(5000 / STEP_MS);
    const res = await report(visitor, run.runId, {
      step,
      jumps: run.inputs.filter((s) => s < step),
    });
    expect(res.statusCode).toBe(422);
    expect(res.json()).toMatchObject({ code: 'RUN_AHEAD' });
    await expectUnranked(visitor, run, /ran ahead of real time/);
  });

  it('ends a round as unranked when its final jump log does not extend the reported one', async () => {
    const visitor = TestClient.inject(t.app);
    await visitor.register(uniqueName('Member'));
    const run = await memberRun(visitor);
    await reportPaced(visitor, t.clock, run);
    // Same length, one early jump moved by a step: a log "improved" after the fact.
    const altered = [...run.inputs];
    const moved = altered.findIndex((jump, i) => jump + 1 < altered[i + 1]!);
    expect(moved).toBeGreaterThanOrEqual(0);
    altered[moved] = altered[moved]! + 1;
    const before = await valuables();
    const res = await visitor.request('POST', gamePaths.scores, {
      body: scoreBody(run, 'Editor', { inputs: altered }),
    });
    expect(res.statusCode).toBe(422);
    expect(res.json()).toMatchObject({ code: 'RUN_INCONSISTENT' });
    expect(await valuables()).toEqual(before);
    // The honest log no longer helps: the run was ended.
    await expectUnranked(visitor, run, /differ from the ones reported/);
  });

  it('refuses a report with jumps past the step reached, or out of order', async () => {
    const visitor = TestClient.inject(t.app);
    const run = await play(visitor, 600, t.clock);
    t.clock.advance(ROUND_START_DELAY_MS + 1000);
    const res = await report(visitor, run.runId, { step: 60, jumps: [10, 70] });
    expect(res.statusCode).toBe(422);
    expect(res.json()).toMatchObject({ code: 'RUN_INCONSISTENT' });
    const other = await play(visitor, 600, t.clock);
    t.clock.advance(ROUND_START_DELAY_MS + 1000);
    const swapped = await report(visitor, other.runId, { step: 60, jumps: [30, 20] });
    expect(swapped.json()).toMatchObject({ code: 'RUN_INCONSISTENT' });
  });

  it('refuses bad report bodies with a clear 4xx and no refusal of the run', async () => {
    const visitor = TestClient.inject(t.app);
    const run = await play(visitor, 300, t.clock);
    for (const body of [{}, { step: -1, jumps: [] }, { step: 1.5, jumps: [] }, { step: 5 }]) {
      const res = await report(visitor, run.runId, body as never);
      expect(res.statusCode).toBe(400);
      expect(res.json<{ message: string }>().message).toBeTruthy();
    }
    const unknown = await report(visitor, 'x'.repeat(22), { step: 1, jumps: [] });
    expect(unknown.statusCode).toBe(422);
    await reportPaced(visitor, t.clock, run);
    const ok = await visitor.request('POST', gamePaths.scores, {
      body: scoreBody(run, uniqueName('Fine')),
    });
    expect(ok.statusCode, ok.body).toBe(201);
  });

  it('serves the replay of a ranked entry, which plays to the same score, and nothing else', async () => {
    const member = TestClient.inject(t.app);
    const user = await member.register(uniqueName('Watched'));
    await db()
      .updateTable('users')
      .set({ selected_character_key: 'pudge' })
      .where('id', '=', user.id)
      .execute();
    const run = await play(member, 900, t.clock);
    await reportPaced(member, t.clock, run);
    // The coins first: saving them verifies the run, and its one replay measured it then.
    const coins = await member.request('POST', gamePaths.coins, {
      body: { amount: run.result.coins, runId: run.runId, inputs: run.inputs },
    });
    expect(coins.statusCode, coins.body).toBe(200);
    const res = await member.request('POST', gamePaths.scores, {
      body: scoreBody(run, 'ignored'),
    });
    const { entry } = res.json<{ entry: { id: number } }>();

    const viewer = TestClient.inject(t.app);
    const replay = await viewer.request('GET', replayPath(entry.id));
    expect(replay.statusCode, replay.body).toBe(200);
    const body = replay.json<ReplayResponse>();
    expect(body).toMatchObject({
      entryId: entry.id,
      playerName: user.username,
      character: 'pudge',
      seed: run.seed,
      inputs: run.inputs,
      score: run.result.score,
      steps: run.result.steps,
    });
    expect(body.statistics).toEqual(run.statistics);
    const replayed = simulate(body.seed, body.inputs);
    expect(replayed.ok && replayed.score).toBe(body.score);

    expect((await viewer.request('GET', replayPath(entry.id + 10_000))).statusCode).toBe(404);
    expect((await viewer.request('GET', '/api/leaderboard/abc/replay')).statusCode).toBe(400);
  });
});
