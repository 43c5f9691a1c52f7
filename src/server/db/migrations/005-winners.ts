import { withIdColumn, timestamp } from '../migration-helpers.ts';
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  // Prizes the operator has paid (winners:add); one per leaderboard week.
  await withIdColumn(db, db.schema.createTable('giveaway_winners'))
    .addColumn('week_id', 'text', (c) => c.notNull().unique())
    .addColumn('player_name', 'text', (c) => c.notNull())
    .addColumn('prize', 'text', (c) => c.notNull())
    .addColumn('tx_url', 'text', (c) => c.notNull())
    .addColumn('paid_at', timestamp, (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('giveaway_winners_paid_at')
    .on('giveaway_winners')
    .column('paid_at')
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('giveaway_winners').execute();
}
