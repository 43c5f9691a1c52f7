import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  // A week's entries in leaderboard order, so the standings read the top of the week instead
  // of ranking every entry (see weekStandings).
  await db.schema
    .createIndex('game_scores_week_order')
    .on('game_scores')
    .columns(['week_start', 'score desc', 'created_at', 'id'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('game_scores_week_order').execute();
}
