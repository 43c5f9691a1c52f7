import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import { createDatabase } from '#server/db/create-database.ts';
import type { Database } from '#server/db/database.ts';
import { insertRun, insertScore, recordVerification } from '#server/game/repository.ts';
import type { ProgressBody, SubmitScoreBody } from '#shared/api/game.ts';
import { autopilotInputs } from '#shared/game/autopilot.ts';
import { STEP_MS } from '#shared/game/constants.ts';
import { REPORT_INTERVAL_MS, ROUND_START_DELAY_MS } from '#shared/game/pacing.ts';
import { RunStatisticsRecorder, type RunStatistics } from '#shared/game/run-statistics.ts';
import { simulate, type ValidRun } from '#shared/game/simulate.ts';
import { WEEK_MS, weekStartUtc } from '#shared/time.ts';
import { roundWithCoins } from './round-with-coins.ts';
import { sleep } from './sleep.ts';

export interface HonestRun {
  runId: string;
  seed: number;
  inputs: number[];
  result: ValidRun;
  statistics: RunStatistics;
}

/**
 * The autopilot plays the run the server handed out, as a player would: the jump log and the
 * figures the replay will agree with. About 420 target steps collect a coin or more.
 */
export function playHonestly(
  runId: string,
  seed: number,
  targetSteps: number,
  options: { withCoins?: boolean } = {},
): HonestRun {
  const inputs = options.withCoins
    ? roundWithCoins(seed, targetSteps).inputs
    : autopilotInputs(seed, targetSteps);
  const statistics = new RunStatisticsRecorder();
  const result = simulate(seed, inputs, {}, statistics);
  if (!result.ok) throw new Error(`autopilot run did not replay: ${result.message}`);
  return { runId, seed, inputs, result, statistics: statistics.result() };
}

/** Milliseconds from a run's issue to the end of its play in real time (countdown included). */
export function playableAfterMs(run: HonestRun): number {
  return ROUND_START_DELAY_MS + Math.ceil(run.result.steps * STEP_MS);
}

export interface ScheduledReport {
  /** When the client sends it, in milliseconds after the run's issue. */
  atMs: number;
  body: ProgressBody;
}

/**
 * The progress reports an honest client sends for this run: one a second while it runs, then
 * one at game over (the last is due at playableAfterMs).
 */
export function progressReports(run: HonestRun): ScheduledReport[] {
  const reports: ScheduledReport[] = [];
  let from = 0;
  const add = (atMs: number, step: number) => {
    const jumps = run.inputs.filter((s) => s >= from && s < step);
    reports.push({ atMs, body: { step, jumps } });
    from = step;
  };
  for (let t = REPORT_INTERVAL_MS; ; t += REPORT_INTERVAL_MS) {
    const step = Math.floor(t / STEP_MS);
    if (step >= run.result.steps) break;
    add(ROUND_START_DELAY_MS + t, step);
  }
  add(playableAfterMs(run), run.result.steps);
  return reports;
}

type ScoreFigures = Pick<
  SubmitScoreBody,
  'score' | 'level' | 'tasksCompleted' | 'powerUpsCollected' | 'gameTime'
>;

/** The figures a score of this run states: the ones its replay reaches. */
export function scoreFigures(run: HonestRun): ScoreFigures {
  const { score, level, tasksCompleted, powerUpsCollected, gameTime } = run.result;
  return { score, level, tasksCompleted, powerUpsCollected, gameTime };
}

export function scoreBody(run: HonestRun, playerName: string): SubmitScoreBody {
  return { playerName, ...scoreFigures(run), runId: run.runId, inputs: run.inputs };
}

/**
 * Sends a run's progress reports on the real clock, each when an honest client would (from
 * `issuedAt`, the caller's reading of the issue); `post` sends one and answers its status.
 */
export async function sendProgressReports(
  run: HonestRun,
  issuedAt: number,
  post: (body: ProgressBody, index: number) => Promise<number>,
): Promise<void> {
  let index = 0;
  for (const report of progressReports(run)) {
    const wait = issuedAt + report.atMs - Date.now();
    if (wait > 0) await sleep(wait);
    const status = await post(report.body, index++);
    if (status !== 200) throw new Error(`progress report ${index} of ${run.runId}: ${status}`);
  }
}

/**
 * Stores an honest run of the autopilot's and its board entry at `at`, as the game does once a
 * run is replayed and its score submitted: for suites that review a week without playing it.
 */
export async function storeHonestEntry(
  db: Kysely<Database>,
  entry: { userId: number | null; playerName: string; targetSteps: number; at: number },
): Promise<{ runId: string; entryId: number; run: HonestRun }> {
  const { userId, playerName, at } = entry;
  const runId = randomBytes(16).toString('base64url');
  const run = playHonestly(runId, randomBytes(4).readUInt32LE(), entry.targetSteps);
  await insertRun(db, { id: runId, seed: run.seed, userId, issuedAt: at - 60_000 });
  await recordVerification(db, runId, { inputs: run.inputs, ...run.result }, run.statistics, at);
  const entryId = await insertScore(db, {
    runId,
    userId,
    playerKey: userId === null ? `n:${playerName.toLowerCase()}` : `u:${userId}`,
    playerName,
    ...scoreFigures(run),
    weekStart: weekStartUtc(at),
    createdAt: at,
  });
  return { runId, entryId, run };
}

/**
 * A member's honest run of last week, written into a running server's SQLite file as the game
 * stores a replayed run and its score: what the prize week reviews, for journeys that cannot
 * wait a week. Gives the run's id.
 */
export async function storeLastWeekRun(
  dbFile: string,
  username: string,
  targetSteps: number,
  afterStore?: (db: Kysely<Database>, userId: number, at: number) => Promise<unknown>,
): Promise<string> {
  const lastWeek = Date.now() - WEEK_MS;
  const db = createDatabase({ kind: 'sqlite', file: dbFile });
  try {
    const user = await db
      .selectFrom('users')
      .select('id')
      .where('username', '=', username)
      .executeTakeFirstOrThrow();
    const { runId } = await storeHonestEntry(db, {
      userId: user.id,
      playerName: username,
      targetSteps,
      at: lastWeek,
    });
    await afterStore?.(db, user.id, lastWeek);
    return runId;
  } finally {
    await db.destroy();
  }
}
