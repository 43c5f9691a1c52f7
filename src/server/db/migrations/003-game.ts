import { sql, type Kysely } from 'kysely';
import {
  createIndexes,
  dropTables,
  keptAfterUser,
  timestamp,
  withIdColumn,
} from '../migration-helpers.ts';

export async function up(db: Kysely<any>): Promise<void> {
  // One row per round handed out by POST /api/game-runs. The first route that replays the run
  // (score or coins) records the verified figures and the jump log, so a run has exactly one
  // outcome; the two "used" columns are flipped by guarded UPDATEs, so a run counts only once.
  await db.schema
    .createTable('game_runs')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('seed', 'bigint', (c) => c.notNull().check(sql`seed >= 0 and seed < 4294967296`))
    .addColumn('user_id', 'integer', keptAfterUser)
    .addColumn('issued_at', timestamp, (c) => c.notNull())
    .addColumn('verified_at', timestamp)
    .addColumn('inputs', 'text')
    .addColumn('steps', 'integer')
    .addColumn('score', 'integer')
    .addColumn('coins', 'integer')
    .addColumn('obstacles_passed', 'integer')
    .addColumn('score_submitted_at', timestamp)
    .addColumn('coins_credited', 'integer', (c) => c.check(sql`coins_credited > 0`))
    .addColumn('coins_credited_at', timestamp)
    .execute();
  await createIndexes(db, 'game_runs', {
    game_runs_issued_at: ['issued_at'],
    game_runs_user_id: ['user_id'],
  });

  // Accepted leaderboard entries. player_key groups a player's entries: `u:<user id>` for a
  // member, `n:<lower-cased name>` for a visitor.
  await withIdColumn(db, db.schema.createTable('game_scores'))
    .addColumn('run_id', 'text', (c) => c.notNull().unique().references('game_runs.id'))
    .addColumn('user_id', 'integer', keptAfterUser)
    .addColumn('player_key', 'text', (c) => c.notNull())
    .addColumn('player_name', 'text', (c) => c.notNull())
    .addColumn('score', 'integer', (c) => c.notNull().check(sql`score >= 0`))
    .addColumn('level', 'integer', (c) => c.notNull().check(sql`level >= 1`))
    .addColumn('tasks_completed', 'integer', (c) => c.notNull().check(sql`tasks_completed >= 0`))
    .addColumn('power_ups_collected', 'integer', (c) =>
      c.notNull().check(sql`power_ups_collected >= 0`),
    )
    .addColumn('game_time', 'integer', (c) => c.notNull().check(sql`game_time >= 0`))
    .addColumn('week_start', timestamp, (c) => c.notNull())
    .addColumn('created_at', timestamp, (c) => c.notNull())
    .execute();
  await createIndexes(db, 'game_scores', {
    game_scores_week_player: ['week_start', 'player_key', 'score'],
  });
}

export async function down(db: Kysely<any>): Promise<void> {
  await dropTables(db, ['game_scores', 'game_runs']);
}
