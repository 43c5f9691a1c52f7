import { sql, type Kysely } from 'kysely';
import { APPEND_ONLY_FUNCTION, appendOnly, dropAppendOnly } from '../append-only.ts';
import { createIndexes, isPostgres, timestamp, withIdColumn } from '../migration-helpers.ts';
import { createPrizeEventsTriggers } from './010-prize-wallets.ts';

/**
 * The prize record's triggers become db/append-only.ts's (which also refuse SQLite's REPLACE
 * and mark the table for the app role's grants), and each wallet a member proves is recorded in
 * wallet_changes, append-only too (docs/decisions/019-append-only-records-and-wallet-changes.md).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await dropPrizeEventsTriggers(db);
  await appendOnly(db, 'prize_events');

  // One row per wallet a member proved: the address before (null for the first) and after, and
  // the signed message and signature that proved it. user_id is a plain number, as in
  // prize_events, so that deleting an account leaves the record whole.
  await withIdColumn(db, db.schema.createTable('wallet_changes'))
    .addColumn('user_id', 'integer', (c) => c.notNull())
    .addColumn('old_address', 'text')
    .addColumn('new_address', 'text', (c) => c.notNull())
    .addColumn('message', 'text', (c) => c.notNull())
    .addColumn('signature', 'text', (c) => c.notNull())
    .addColumn('changed_at', timestamp, (c) => c.notNull())
    .execute();
  await createIndexes(db, 'wallet_changes', { wallet_changes_user: ['user_id', 'id'] });
  // The wallets linked before this record began are its first rows.
  await sql`
    insert into wallet_changes (user_id, old_address, new_address, message, signature, changed_at)
    select user_id, null, address, message, signature, linked_at
    from user_wallets order by linked_at, user_id`.execute(db);
  await appendOnly(db, 'wallet_changes');
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('wallet_changes').execute();
  await dropAppendOnly(db, 'prize_events');
  if (isPostgres(db)) await sql`drop function ${sql.id(APPEND_ONLY_FUNCTION)}()`.execute(db);
  await createPrizeEventsTriggers(db);
}

async function dropPrizeEventsTriggers(db: Kysely<any>): Promise<void> {
  if (isPostgres(db)) {
    await sql`drop trigger prize_events_no_change on prize_events`.execute(db);
    await sql`drop trigger prize_events_no_truncate on prize_events`.execute(db);
    await sql`drop function prize_events_append_only()`.execute(db);
  } else {
    await sql`drop trigger prize_events_no_update`.execute(db);
    await sql`drop trigger prize_events_no_delete`.execute(db);
  }
}
