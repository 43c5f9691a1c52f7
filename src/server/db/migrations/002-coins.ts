import type { Kysely } from 'kysely';
import {
  createIndexes,
  dropTables,
  deletedWithUser,
  timestamp,
  withIdColumn,
} from '../migration-helpers.ts';

/**
 * The coin economy: users.coins (001, CHECK >= 0) is the balance; coin_ledger records every
 * change with its reason so the sum of a member's deltas always equals the balance.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await withIdColumn(db, db.schema.createTable('coin_ledger'))
    .addColumn('user_id', 'integer', deletedWithUser)
    .addColumn('delta', 'integer', (c) => c.notNull())
    .addColumn('balance_after', 'integer', (c) => c.notNull())
    .addColumn('reason', 'text', (c) => c.notNull())
    // A game run credits coins at most once: the unique key makes a replayed claim fail.
    .addColumn('run_id', 'text', (c) => c.unique())
    .addColumn('character_key', 'text')
    .addColumn('note', 'text')
    .addColumn('created_at', timestamp, (c) => c.notNull())
    .execute();
  await createIndexes(db, 'coin_ledger', { coin_ledger_user_id: ['user_id', 'id'] });

  await db.schema
    .createTable('owned_characters')
    .addColumn('user_id', 'integer', deletedWithUser)
    .addColumn('character_key', 'text', (c) => c.notNull())
    .addColumn('acquired_at', timestamp, (c) => c.notNull())
    .addPrimaryKeyConstraint('owned_characters_pk', ['user_id', 'character_key'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await dropTables(db, ['owned_characters', 'coin_ledger']);
}
