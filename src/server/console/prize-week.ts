import type { Kysely } from 'kysely';
import { machineSigns } from '#shared/game/run-statistics.ts';
import type { Database } from '../db/database.ts';
import { closedWeek, reviewWeek } from '../prize/review.ts';

/**
 * The console's Prize week (issue 32): the closed week as prize/review.ts reviews it, with what
 * this operator has watched. A read: it records nothing (the CLI's prize:review records what it
 * showed; the console records a review when the operator has watched a replay to its end).
 */

const REVIEW_LIMIT = 10;

async function watchedRuns(db: Kysely<Database>, operatorId: number): Promise<Set<string>> {
  const rows = await db
    .selectFrom('replay_watches')
    .select('run_id')
    .where('operator_id', '=', operatorId)
    .execute();
  return new Set(rows.map((r) => r.run_id));
}

export async function prizeWeek(db: Kysely<Database>, operatorId: number, now: number) {
  const [review, watched] = await Promise.all([
    reviewWeek(db, closedWeek(now), REVIEW_LIMIT, now),
    watchedRuns(db, operatorId),
  ]);
  const { approval, paid } = review;
  return {
    week: review.week.id,
    open: review.open,
    paid: paid !== undefined,
    approved: approval
      ? {
          runId: approval.run_id ?? '',
          playerName: approval.player_name,
          wallet: approval.wallet_address,
        }
      : null,
    entries: review.entries.map(({ row, wallet, statistics, why }, index) => ({
      rank: index + 1,
      entryId: row.id,
      runId: row.run_id,
      playerName: row.player_name,
      member: row.user_id !== null,
      score: row.score,
      level: row.level,
      tasks: row.tasks_completed,
      powerUps: row.power_ups_collected,
      gameTime: row.game_time,
      payable: why === null,
      why,
      wallet,
      statistics: statistics ? ({ ...statistics } as unknown as Record<string, number>) : null,
      signs: statistics ? machineSigns(statistics).map((s) => s.label) : [],
      watched: watched.has(row.run_id),
      paidTo: paid?.run_id === row.run_id,
    })),
  };
}
