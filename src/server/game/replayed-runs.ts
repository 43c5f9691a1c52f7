import type { Kysely, Transaction } from 'kysely';
import { STEP_MS } from '#shared/game/constants.ts';
import { ROUND_START_DELAY_MS } from '#shared/game/pacing.ts';
import { RunStatisticsRecorder } from '#shared/game/run-statistics.ts';
import { simulate } from '#shared/game/simulate.ts';
import { weekStartUtc } from '#shared/time.ts';
import type { Database } from '../db/database.ts';
import { insertRun, insertScore, recordVerification } from './repository.ts';
import { randomToken } from '../security/random-token.ts';

/**
 * A member's run whose jump log was played away from the site's pages (the autopilot's, for a
 * rehearsal), stored as the game stores a run it replayed and a score it accepted: the run with
 * its verified log and statistics, and its board entry in the week of `finishedAt`. Replayed here
 * first, so nothing goes on the board that the server's own replay would refuse.
 */
export async function recordReplayedRun(
  db: Kysely<Database>,
  run: { userId: number; playerName: string; seed: number; inputs: number[]; finishedAt: number },
): Promise<{ runId: string; entryId: number; score: number; gameTime: number }> {
  const statistics = new RunStatisticsRecorder();
  const result = simulate(run.seed, run.inputs, {}, statistics);
  if (!result.ok) throw new Error(`the run of seed ${run.seed} does not replay: ${result.message}`);
  const runId = randomToken(16);
  const issuedAt = run.finishedAt - ROUND_START_DELAY_MS - Math.ceil(result.steps * STEP_MS);
  await insertRun(db, { id: runId, seed: run.seed, userId: run.userId, issuedAt });
  await recordVerification(
    db,
    runId,
    { inputs: run.inputs, ...result },
    statistics.result(),
    run.finishedAt,
  );
  const { score, level, tasksCompleted, powerUpsCollected, gameTime } = result;
  const entryId = await insertScore(db, {
    runId,
    userId: run.userId,
    playerKey: `u:${run.userId}`,
    playerName: run.playerName,
    score,
    level,
    tasksCompleted,
    powerUpsCollected,
    gameTime,
    weekStart: weekStartUtc(run.finishedAt),
    createdAt: run.finishedAt,
  });
  return { runId, entryId, score, gameTime };
}

/** Deletes a member's runs, their statistics and board entries; gives how many of each. */
export async function deleteRunsOfMember(
  trx: Transaction<Database>,
  userId: number,
): Promise<{ runs: number; entries: number }> {
  const runIds = trx.selectFrom('game_runs').select('id').where('user_id', '=', userId);
  const entries = await trx
    .deleteFrom('game_scores')
    .where((eb) => eb.or([eb('user_id', '=', userId), eb('run_id', 'in', runIds)]))
    .executeTakeFirst();
  await trx.deleteFrom('game_run_statistics').where('run_id', 'in', runIds).execute();
  const runs = await trx.deleteFrom('game_runs').where('user_id', '=', userId).executeTakeFirst();
  return { runs: Number(runs.numDeletedRows), entries: Number(entries.numDeletedRows) };
}
