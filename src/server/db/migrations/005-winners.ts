import { createIndexes, timestamp, withIdColumn } from '../migration-helpers.ts';
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await createGiveawayWinners(db);
}

/** Prizes the operator has paid (winners:add); one per leaderboard week. 010's down puts it back. */
export async function createGiveawayWinners(db: Kysely<any>): Promise<void> {
  await withIdColumn(db, db.schema.createTable('giveaway_winners'))
    .addColumn('week_id', 'text', (c) => c.notNull().unique())
    .addColumn('player_name', 'text', (c) => c.notNull())
    .addColumn('prize', 'text', (c) => c.notNull())
    .addColumn('tx_url', 'text', (c) => c.notNull())
    .addColumn('paid_at', timestamp, (c) => c.notNull())
    .execute();
  await createIndexes(db, 'giveaway_winners', { giveaway_winners_paid_at: ['paid_at'] });
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('giveaway_winners').execute();
}
