import {
  sql,
  type Expression,
  type ExpressionBuilder,
  type Kysely,
  type Selectable,
  type SqlBool,
  type Transaction,
  type UpdateObject,
} from 'kysely';
import type {
  Database,
  GameRunStatisticsTable,
  GameRunsTable,
  GameScoresTable,
} from '../db/database.ts';
import type { RunStatistics } from '#shared/game/run-statistics.ts';
import { readSnapshot } from '../db/read-snapshot.ts';
import { MAX_STEPS, STEP_MS, STEPS_PER_SECOND } from '#shared/game/constants.ts';
import { MAX_REPORT_GAP_MS, ROUND_START_DELAY_MS } from '#shared/game/pacing.ts';
import { lookAlikesOfMembers } from '../accounts/repository.ts';

type Db = Kysely<Database> | Transaction<Database>;
export type GameRunRow = Selectable<GameRunsTable>;

type RunColumns = ExpressionBuilder<Database, 'game_runs'>;
type RunChange = UpdateObject<Database, 'game_runs'>;

/**
 * The one way a run moves on: sets `change` on run `runId` only while every `guard` holds, in
 * one statement, so of two requests racing for the same step exactly one gets true.
 */
async function changeRunIf(
  db: Db,
  runId: string,
  change: RunChange | ((eb: RunColumns) => RunChange),
  guards: (eb: RunColumns) => Expression<SqlBool>[],
): Promise<boolean> {
  const result = await db
    .updateTable('game_runs')
    .set(change)
    .where('id', '=', runId)
    .where((eb) => eb.and(guards(eb)))
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Neither replayed nor refused yet. */
function isOpen(eb: RunColumns): Expression<SqlBool>[] {
  return [eb('verified_at', 'is', null), eb('refused_at', 'is', null)];
}

export async function insertRun(
  db: Db,
  run: {
    id: string;
    seed: number;
    userId: number | null;
    issuedAt: number;
    /** The caller's network (`clientNetwork`), counted while the run may report. */
    network?: string;
  },
): Promise<void> {
  await db
    .insertInto('game_runs')
    .values({
      id: run.id,
      seed: run.seed,
      user_id: run.userId,
      issued_at: run.issuedAt,
      network: run.network ?? null,
      // The member's character as the round starts, for its replay (visitors fly the default).
      ...(run.userId !== null
        ? {
            character_key: sql<string>`coalesce((select selected_character_key from users where id = ${run.userId}), 'default')`,
          }
        : {}),
    })
    .execute();
}

/**
 * Runs of `network` that may still report at `now`: neither verified nor refused (both clear
 * the network), not at their last step, and heard from (or started) within the longest gap
 * allowed between reports. A run past that is refused at its next report, so it costs nothing.
 */
export async function countOpenRuns(db: Db, network: string, now: number): Promise<number> {
  // No run reports for longer than its whole round and the gap after it.
  const oldest = now - (ROUND_START_DELAY_MS + MAX_STEPS * STEP_MS + MAX_REPORT_GAP_MS);
  const row = await db
    .selectFrom('game_runs')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('network', '=', network)
    .where('issued_at', '>', oldest)
    .where('progress_step', '<', MAX_STEPS)
    .where(
      sql<number>`coalesce(progress_at, issued_at + ${ROUND_START_DELAY_MS})`,
      '>=',
      now - MAX_REPORT_GAP_MS,
    )
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** What a progress report needs of its run: one narrow read. */
export async function findRunProgress(db: Db, id: string) {
  return db
    .selectFrom('game_runs')
    .select([
      'id',
      'user_id',
      'issued_at',
      'progress_step',
      'progress_at',
      'jump_count',
      'verified_at',
      'refused_at',
      'refusal_code',
      'refusal_message',
    ])
    .where('id', '=', id)
    .executeTakeFirst();
}

/** A chunk of `run_jumps`: step numbers, comma-separated. */
const toChunk = (jumps: readonly number[]) => jumps.join(',');
const fromChunks = (chunks: readonly { jumps: string }[]) =>
  chunks.flatMap((chunk) => chunk.jumps.split(',').map(Number));

/** A run's jumps as stored (reported so far, or its verified log), in order. */
export async function runJumps(db: Db, runId: string): Promise<number[]> {
  const chunks = await db
    .selectFrom('run_jumps')
    .select('jumps')
    .where('run_id', '=', runId)
    .orderBy('first_step')
    .execute();
  return fromChunks(chunks);
}

/** The jumps of several runs, by run id (a run without any is absent). */
async function runJumpsByRunId(db: Db, runIds: readonly string[]): Promise<Map<string, number[]>> {
  if (runIds.length === 0) return new Map();
  const chunks = await db
    .selectFrom('run_jumps')
    .select(['run_id', 'jumps'])
    .where('run_id', 'in', runIds)
    .orderBy('run_id')
    .orderBy('first_step')
    .execute();
  const logs = new Map<string, number[]>();
  for (const chunk of chunks) {
    const log = logs.get(chunk.run_id) ?? [];
    log.push(...fromChunks([chunk]));
    logs.set(chunk.run_id, log);
  }
  return logs;
}

/**
 * Records a report's progress if nothing changed the run since it was read (another report, a
 * submission, a refusal); true when it did. The new jumps are one appended chunk: a report
 * writes what it brings, never the jumps before it (migration 013).
 */
export async function recordProgress(
  db: Kysely<Database>,
  runId: string,
  from: { step: number; at: number | null },
  to: { step: number; jumps: readonly number[]; at: number },
): Promise<boolean> {
  const move = (trx: Db) =>
    changeRunIf(
      trx,
      runId,
      (eb) => ({
        progress_step: to.step,
        progress_at: to.at,
        ...(to.jumps.length > 0 ? { jump_count: eb('jump_count', '+', to.jumps.length) } : {}),
      }),
      (eb) => [
        eb('progress_step', '=', from.step),
        from.at === null ? eb('progress_at', 'is', null) : eb('progress_at', '=', from.at),
        ...isOpen(eb),
      ],
    );
  if (to.jumps.length === 0) return move(db);
  return db.transaction().execute(async (trx) => {
    if (!(await move(trx))) return false;
    await trx
      .insertInto('run_jumps')
      .values({ run_id: runId, first_step: from.step, jumps: toChunk(to.jumps) })
      .execute();
    return true;
  });
}

/** Ends a run as unranked unless it was verified or refused meanwhile; true when this did. */
export async function recordRefusal(
  db: Db,
  runId: string,
  refusal: { code: string; message: string },
  now: number,
): Promise<boolean> {
  return changeRunIf(
    db,
    runId,
    {
      refused_at: now,
      refusal_code: refusal.code,
      refusal_message: refusal.message,
      network: null,
    },
    isOpen,
  );
}

async function insertRunStatistics(
  db: Db,
  runId: string,
  stats: RunStatistics,
  now: number,
): Promise<void> {
  await db
    .insertInto('game_run_statistics')
    .values({
      run_id: runId,
      jumps: stats.jumps,
      jump_interval_median_ms: stats.jumpIntervalMedianMs,
      jump_interval_cv: stats.jumpIntervalCv,
      aim_spread_px: stats.aimSpreadPx,
      edge_margin_min_px: stats.edgeMarginMinPx,
      edge_margin_median_px: stats.edgeMarginMedianPx,
      reaction_median_ms: stats.reactionMedianMs,
      fast_reaction_share: stats.fastReactionShare,
      top_speed: stats.topSpeed,
      computed_at: now,
    })
    .onConflict((oc) => oc.column('run_id').doNothing())
    .execute();
}

function toStatistics(row: Selectable<GameRunStatisticsTable>): RunStatistics {
  return {
    jumps: row.jumps,
    jumpIntervalMedianMs: row.jump_interval_median_ms,
    jumpIntervalCv: row.jump_interval_cv,
    aimSpreadPx: row.aim_spread_px,
    edgeMarginMinPx: row.edge_margin_min_px,
    edgeMarginMedianPx: row.edge_margin_median_px,
    reactionMedianMs: row.reaction_median_ms,
    fastReactionShare: row.fast_reaction_share,
    topSpeed: row.top_speed,
  };
}

/**
 * The stored replay statistics of ranked runs, by run id (runs without any are absent). The
 * operator's prize review reads these beside each run.
 */
export async function runStatisticsByRunId(
  db: Db,
  runIds: readonly string[],
): Promise<Map<string, RunStatistics>> {
  if (runIds.length === 0) return new Map();
  const rows = await db
    .selectFrom('game_run_statistics')
    .selectAll()
    .where('run_id', 'in', runIds)
    .execute();
  return new Map(rows.map((row) => [row.run_id, toStatistics(row)]));
}

/** A ranked entry's run as its public replay needs it; undefined for no such entry. */
export async function findEntryReplay(db: Db, entryId: number) {
  return db
    .selectFrom('game_scores as s')
    .innerJoin('game_runs as r', 'r.id', 's.run_id')
    .select([
      's.id as entry_id',
      's.run_id',
      's.player_name',
      's.score',
      's.level',
      's.game_time',
      's.created_at',
      'r.seed',
      'r.steps',
      'r.coins',
      'r.obstacles_passed',
      'r.character_key',
    ])
    .where('s.id', '=', entryId)
    .executeTakeFirst();
}

/** How many rounds each of the members has played to their end (absent: none). */
export async function finishedRunCounts(
  db: Db,
  userIds: readonly number[],
): Promise<Map<number, number>> {
  if (userIds.length === 0) return new Map();
  const rows = await db
    .selectFrom('game_runs')
    .select((eb) => ['user_id', eb.fn.countAll<number | string>().as('n')])
    .where('user_id', 'in', userIds)
    .where('verified_at', 'is not', null)
    .groupBy('user_id')
    .execute();
  return new Map(rows.map((r) => [r.user_id!, Number(r.n)]));
}

export async function findRun(db: Db, id: string): Promise<GameRunRow | undefined> {
  return db.selectFrom('game_runs').selectAll().where('id', '=', id).executeTakeFirst();
}

export interface RunOutcome {
  /** The verified jump log. */
  inputs: readonly number[];
  steps: number;
  score: number;
  coins: number;
  obstaclesPassed: number;
}

/**
 * Records the replay's figures unless another request already did; true when this one did.
 * The run's reported chunks give way to its verified log, one chunk: written once per run.
 */
export async function recordVerification(
  db: Kysely<Database>,
  runId: string,
  outcome: RunOutcome,
  statistics: RunStatistics,
  now: number,
): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    const settled = await changeRunIf(
      trx,
      runId,
      {
        verified_at: now,
        steps: outcome.steps,
        score: outcome.score,
        coins: outcome.coins,
        obstacles_passed: outcome.obstaclesPassed,
        jump_count: outcome.inputs.length,
        network: null,
      },
      isOpen,
    );
    if (!settled) return false;
    await trx.deleteFrom('run_jumps').where('run_id', '=', runId).execute();
    if (outcome.inputs.length > 0) {
      await trx
        .insertInto('run_jumps')
        .values({ run_id: runId, first_step: 0, jumps: toChunk(outcome.inputs) })
        .execute();
    }
    await insertRunStatistics(trx, runId, statistics, now);
    return true;
  });
}

/** The guard that lets one submission per run through, however many arrive at once. */
export async function markScoreSubmitted(db: Db, runId: string, now: number): Promise<boolean> {
  return changeRunIf(db, runId, { score_submitted_at: now }, (eb) => [
    eb('score_submitted_at', 'is', null),
    eb('verified_at', 'is not', null),
  ]);
}

/** Same for coins: the amount is bounded by the verified coins in SQL too. */
export async function markCoinsCredited(
  db: Db,
  runId: string,
  amount: number,
  now: number,
): Promise<boolean> {
  return changeRunIf(db, runId, { coins_credited: amount, coins_credited_at: now }, (eb) => [
    eb('coins_credited_at', 'is', null),
    eb('verified_at', 'is not', null),
    eb('coins', '>=', amount),
  ]);
}

/**
 * Another run of this member whose coins were saved and whose play overlaps this one's: from
 * its issue to its last step, in whole milliseconds (the columns are integers).
 */
export async function hasOverlappingCreditedRun(
  db: Db,
  userId: number,
  run: { id: string; issuedAt: number; steps: number },
): Promise<boolean> {
  const end = run.issuedAt + Math.floor((run.steps * 1000) / STEPS_PER_SECOND);
  const row = await db
    .selectFrom('game_runs')
    .select('id')
    .where('user_id', '=', userId)
    .where('id', '<>', run.id)
    .where('coins_credited_at', 'is not', null)
    .where('issued_at', '<', end)
    .where(sql<number>`issued_at + (steps * 1000) / ${STEPS_PER_SECOND}`, '>', run.issuedAt)
    .executeTakeFirst();
  return row !== undefined;
}

export interface NewScore {
  runId: string;
  userId: number | null;
  playerKey: string;
  playerName: string;
  score: number;
  level: number;
  tasksCompleted: number;
  powerUpsCollected: number;
  gameTime: number;
  weekStart: number;
  createdAt: number;
}

export async function insertScore(db: Db, score: NewScore): Promise<number> {
  const row = await db
    .insertInto('game_scores')
    .values({
      run_id: score.runId,
      user_id: score.userId,
      player_key: score.playerKey,
      player_name: score.playerName,
      score: score.score,
      level: score.level,
      tasks_completed: score.tasksCompleted,
      power_ups_collected: score.powerUpsCollected,
      game_time: score.gameTime,
      week_start: score.weekStart,
      created_at: score.createdAt,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

/** The columns of a leaderboard entry that its readers see (not its player key or week). */
const standingColumns = [
  'id',
  'run_id',
  'user_id',
  'player_name',
  'score',
  'level',
  'tasks_completed',
  'power_ups_collected',
  'game_time',
  'created_at',
] as const;

export type StandingRow = Pick<Selectable<GameScoresTable>, (typeof standingColumns)[number]>;

/** A run's leaderboard entry in one week, if it has one. */
export async function weekEntry(
  db: Db,
  runId: string,
  weekStart: number,
): Promise<StandingRow | undefined> {
  return db
    .selectFrom('game_scores')
    .select(standingColumns)
    .where('run_id', '=', runId)
    .where('week_start', '=', weekStart)
    .executeTakeFirst();
}

/**
 * A week's best entry per player, best first; between equal scores the earlier entry ranks
 * higher (and wins the player's own tie too).
 *
 * The week's entries are read in that order along an index (migration 006), and each
 * player's first entry is their best: the first `limit` players met are the standings. So the
 * cost follows the top of the week, not its size (ranking all 20,000 entries of a busy week
 * took 25-30 ms on SQLite; this reads a few dozen rows). Batches grow until enough players are
 * met, inside one snapshot so an entry written meanwhile cannot shift the reading.
 */
export async function weekStandings(
  db: Kysely<Database>,
  weekStart: number,
  limit: number,
): Promise<StandingRow[]> {
  return readSnapshot(db, async (trx) => {
    const standings: StandingRow[] = [];
    const players = new Set<string>();
    let batch = Math.max(20, limit * 4);
    let last: { score: number; created_at: number; id: number } | undefined;
    for (;;) {
      let query = trx
        .selectFrom('game_scores')
        .select([...standingColumns, 'player_key'])
        .where('week_start', '=', weekStart)
        // A run an admin disqualified (the console's Prize week) leaves the board and the review.
        .where('run_id', 'not in', trx.selectFrom('run_disqualifications').select('run_id'));
      if (last) {
        const after = last;
        query = query.where((eb) =>
          eb.or([
            eb('score', '<', after.score),
            eb.and([
              eb('score', '=', after.score),
              eb.or([
                eb('created_at', '>', after.created_at),
                eb.and([eb('created_at', '=', after.created_at), eb('id', '>', after.id)]),
              ]),
            ]),
          ]),
        );
      }
      const rows = await query
        .orderBy('score', 'desc')
        .orderBy('created_at', 'asc')
        .orderBy('id', 'asc')
        .limit(batch)
        .execute();
      const memberLookAlikes = await lookAlikesOfMembers(
        trx,
        rows.filter((row) => row.user_id === null).map((row) => row.player_name),
      );
      for (const { player_key, ...row } of rows) {
        if (players.has(player_key)) continue;
        // A visitor's entry under a name a member has since taken (or one that looks like it)
        // is not shown: the board would name the member for a score that is not theirs.
        if (row.user_id === null && memberLookAlikes.has(row.player_name)) continue;
        players.add(player_key);
        standings.push(row);
        if (standings.length === limit) return standings;
      }
      if (rows.length < batch) return standings;
      last = rows.at(-1);
      batch *= 2;
    }
  });
}

/** Runs handed out but never replayed can no longer be submitted once they expire. */
export async function pruneUnverifiedRuns(db: Db, issuedBefore: number): Promise<void> {
  await db
    .deleteFrom('game_runs')
    .where('issued_at', '<', issuedBefore)
    .where('verified_at', 'is', null)
    .execute();
}

/** A run with its verified jump log (null while it is not verified). */
export type RunWithLog = GameRunRow & { inputs: number[] | null };

export async function findRuns(db: Db, ids: readonly string[]): Promise<RunWithLog[]> {
  if (ids.length === 0) return [];
  const runs = await db.selectFrom('game_runs').selectAll().where('id', 'in', ids).execute();
  const logs = await runJumpsByRunId(
    db,
    runs.filter((run) => run.verified_at !== null).map((run) => run.id),
  );
  return runs.map((run) => ({
    ...run,
    inputs: run.verified_at === null ? null : (logs.get(run.id) ?? []),
  }));
}
