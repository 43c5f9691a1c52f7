import { sql, type Kysely } from 'kysely';
import { timestamp } from '../migration-helpers.ts';

export async function up(db: Kysely<any>): Promise<void> {
  // Progress reported while a round runs (docs/decisions/012): the step reached, the jumps
  // reported so far (comma-separated step numbers, appended in SQL) and when the last report
  // came, so any node can take the next report.
  await db.schema
    .alterTable('game_runs')
    .addColumn('progress_step', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema
    .alterTable('game_runs')
    .addColumn('progress_jumps', 'text', (c) => c.notNull().defaultTo(''))
    .execute();
  await db.schema.alterTable('game_runs').addColumn('progress_at', timestamp).execute();
  // A refused run keeps its answer, so sending it again costs a read, not a replay.
  await db.schema.alterTable('game_runs').addColumn('refused_at', timestamp).execute();
  await db.schema.alterTable('game_runs').addColumn('refusal_code', 'text').execute();
  await db.schema.alterTable('game_runs').addColumn('refusal_message', 'text').execute();
  // The member's character when the round was issued, for its replay.
  await db.schema
    .alterTable('game_runs')
    .addColumn('character_key', 'text', (c) => c.notNull().defaultTo('default'))
    .execute();

  // Figures of a ranked run's replay for the human reviewer (src/shared/game/run-statistics.ts).
  await db.schema
    .createTable('game_run_statistics')
    .addColumn('run_id', 'text', (c) => c.primaryKey().references('game_runs.id'))
    .addColumn('jumps', 'integer', (c) => c.notNull())
    .addColumn('jump_interval_median_ms', 'double precision', (c) => c.notNull())
    .addColumn('jump_interval_cv', 'double precision', (c) => c.notNull())
    .addColumn('aim_spread_px', 'double precision', (c) => c.notNull())
    .addColumn('edge_margin_min_px', 'double precision', (c) => c.notNull())
    .addColumn('edge_margin_median_px', 'double precision', (c) => c.notNull())
    .addColumn('reaction_median_ms', 'double precision', (c) => c.notNull())
    .addColumn('fast_reaction_share', 'double precision', (c) =>
      c.notNull().check(sql`fast_reaction_share >= 0 and fast_reaction_share <= 1`),
    )
    .addColumn('top_speed', 'double precision', (c) => c.notNull())
    .addColumn('computed_at', timestamp, (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('game_run_statistics').execute();
  for (const column of [
    'character_key',
    'refusal_message',
    'refusal_code',
    'refused_at',
    'progress_at',
    'progress_jumps',
    'progress_step',
  ]) {
    await db.schema.alterTable('game_runs').dropColumn(column).execute();
  }
}
