import type { Kysely } from 'kysely';
import { expect } from 'vitest';
import { progressPath, type SubmitScoreBody } from '#shared/api/game.ts';
import { STEP_MS } from '#shared/game/constants.ts';
import {
  playHonestly,
  progressReports,
  scoreBody as honestScoreBody,
  type HonestRun,
} from './honest-run.ts';
import type { TestClock } from './test-app.ts';
import type { TestClient } from './test-client.ts';
import { gamePaths } from '#shared/api/paths.ts';
import { weekStartUtc } from '#shared/time.ts';
import type { Database } from '#server/db/database.ts';
import { insertRun, insertScore } from '#server/game/repository.ts';

export type PlayedRun = HonestRun & {
  /** The app clock's reading when the run was issued. */
  issuedAt?: number;
  /** The browser that asked for the run: a member's run reports only with its session. */
  player?: TestClient;
};

/** Asks for a run and plays it honestly with the autopilot; the clock is not moved. */
export async function play(
  client: TestClient,
  targetSteps = 600,
  clock?: TestClock,
): Promise<PlayedRun> {
  const res = await client.request('POST', gamePaths.runs);
  expect(res.statusCode).toBe(201);
  const { runId, seed } = res.json<{ runId: string; seed: number }>();
  return { ...playHonestly(runId, seed, targetSteps), issuedAt: clock?.now(), player: client };
}

/** Whole milliseconds (the app's clock reads Date.now()) a run takes to play. */
export const realTimeMs = (run: PlayedRun) => Math.ceil(run.result.steps * STEP_MS);

/**
 * Plays runs out in real time on the app's clock: from each run's issue, the countdown and the
 * round, with a progress report a second as the client sends them (the run's own player, else
 * `client`), each answered 200 (runs played at once interleave their reports). `delayMs(n)` holds a run's nth report back, as a
 * poor connection does; the reports after it then arrive late too, bunched.
 */
export async function reportPaced(
  client: TestClient,
  clock: TestClock,
  runs: PlayedRun | PlayedRun[],
  delayMs: (n: number) => number = () => 0,
): Promise<void> {
  const start = clock.now();
  const schedule = (Array.isArray(runs) ? runs : [runs]).flatMap((run) => {
    let due = 0;
    return progressReports(run).map((report, n) => {
      due = Math.max(due, (run.issuedAt ?? start) + report.atMs + delayMs(n));
      return { due, runId: run.runId, body: report.body, by: run.player ?? client };
    });
  });
  schedule.sort((a, b) => a.due - b.due);
  for (const report of schedule) {
    if (report.due > clock.now()) clock.advance(report.due - clock.now());
    const res = await report.by.request('POST', progressPath(report.runId), {
      body: report.body,
    });
    expect(res.statusCode, res.body).toBe(200);
  }
}

/** A score for run `runId` with nothing played: no points, no jumps, no time. */
export function unplayedScoreBody(runId: string, playerName: string): SubmitScoreBody {
  return {
    runId,
    playerName,
    score: 0,
    level: 1,
    tasksCompleted: 0,
    powerUpsCollected: 0,
    gameTime: 0,
    inputs: [],
  };
}

export function scoreBody(
  run: PlayedRun,
  playerName: string,
  overrides: Record<string, unknown> = {},
) {
  return { ...honestScoreBody(run, playerName), ...overrides };
}

/**
 * A visitor's entry written straight into the database, as another node would write it (past
 * this node's caches); the run is unplayed, its figures are the score's. Gives the entry's id.
 */
export async function insertVisitorEntry(
  db: Kysely<Database>,
  entry: { runId: string; playerName: string; score: number; now: number },
): Promise<number> {
  const { playerName, score, now } = entry;
  const runId = entry.runId.padEnd(22, 'x');
  await insertRun(db, { id: runId, seed: 1, userId: null, issuedAt: now });
  return insertScore(db, {
    runId,
    userId: null,
    playerKey: `n:${playerName.toLowerCase()}`,
    playerName,
    score,
    level: 1,
    tasksCompleted: score,
    powerUpsCollected: 0,
    gameTime: 1,
    weekStart: weekStartUtc(now),
    createdAt: now,
  });
}
