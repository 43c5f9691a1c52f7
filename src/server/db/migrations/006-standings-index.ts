import type { Kysely } from 'kysely';
import { createIndexes } from '../migration-helpers.ts';

export async function up(db: Kysely<any>): Promise<void> {
  // A week's entries in leaderboard order, so the standings read the top of the week instead
  // of ranking every entry (see weekStandings).
  await createIndexes(db, 'game_scores', {
    game_scores_week_order: ['week_start', 'score desc', 'created_at', 'id'],
  });
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('game_scores_week_order').execute();
}
