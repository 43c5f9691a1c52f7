import type { Kysely } from 'kysely';
import { replayPageAddress } from '#shared/api/paths.ts';
import { isoWeekId } from '#shared/time.ts';
import type { Database } from '../db/database.ts';

/**
 * A member's best leaderboard entries of every week, best first, each with its public replay:
 * only verified runs (a replay to watch) that no operator disqualified.
 */
export async function bestRunsOfMember(db: Kysely<Database>, userId: number, limit: number) {
  const rows = await db
    .selectFrom('game_scores as s')
    .innerJoin('game_runs as r', 'r.id', 's.run_id')
    .select(['s.id', 's.score', 's.level', 's.week_start', 's.created_at'])
    .where('s.user_id', '=', userId)
    .where('r.steps', 'is not', null)
    .where('s.run_id', 'not in', db.selectFrom('run_disqualifications').select('run_id'))
    .orderBy('s.score', 'desc')
    .orderBy('s.created_at', 'asc')
    .orderBy('s.id', 'asc')
    .limit(limit)
    .execute();
  return rows.map((row) => ({
    entryId: row.id,
    score: row.score,
    level: row.level,
    week: isoWeekId(row.week_start),
    createdAt: row.created_at,
    replay: replayPageAddress(row.id),
  }));
}
