import type { Kysely } from 'kysely';
import { createPartialIndex } from '../migration-helpers.ts';

/**
 * A prepared payment's life on chain (docs/decisions/023-prize-paid-on-chain.md, issue 40): the
 * blockhash the console's transfer is built on and the last block height it can land at, so a
 * payment is expired only once the finalized chain is past it; and the week's attempt number,
 * unique per week, so two operators preparing at once cannot both get a reference to pay.
 * prize:prepare's payments (the operator's wallet picks the blockhash) keep both columns null.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('prize_events').addColumn('blockhash', 'text').execute();
  await db.schema
    .alterTable('prize_events')
    .addColumn('last_valid_block_height', 'bigint')
    .execute();
  await db.schema.alterTable('prize_events').addColumn('attempt', 'integer').execute();
  await createPartialIndex(db, 'prize_events_one_attempt', {
    on: 'prize_events',
    columns: ['week_id', 'attempt'],
    where: ['step', '=', 'pending'],
    unique: true,
  });
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('prize_events_one_attempt').execute();
  for (const column of ['attempt', 'last_valid_block_height', 'blockhash']) {
    await db.schema.alterTable('prize_events').dropColumn(column).execute();
  }
}
