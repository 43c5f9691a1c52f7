import { sql, type Kysely } from 'kysely';
import {
  createIndexes,
  dropTables,
  deletedWithUser,
  isPostgres,
  timestamp,
  withIdColumn,
} from '../migration-helpers.ts';
import { createGiveawayWinners } from './005-winners.ts';

export async function up(db: Kysely<any>): Promise<void> {
  // Sign In With Solana challenges: one row per message the server issued, spent by the link
  // that uses it (used_at) and refused after expires_at. A member's older rows are pruned when
  // they ask for a new one.
  await db.schema
    .createTable('wallet_nonces')
    .addColumn('nonce', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'integer', deletedWithUser)
    .addColumn('domain', 'text', (c) => c.notNull())
    .addColumn('uri', 'text', (c) => c.notNull())
    .addColumn('issued_at', timestamp, (c) => c.notNull())
    .addColumn('expires_at', timestamp, (c) => c.notNull())
    .addColumn('used_at', timestamp)
    .execute();
  await createIndexes(db, 'wallet_nonces', { wallet_nonces_user_id: ['user_id'] });

  // A member's proven wallet: the message and signature that proved it are kept, so anyone
  // auditing a payout can check the proof again. One wallet per member, one member per wallet.
  await db.schema
    .createTable('user_wallets')
    .addColumn('user_id', 'integer', (c) =>
      c.primaryKey().references('users.id').onDelete('cascade'),
    )
    .addColumn('address', 'text', (c) => c.notNull().unique())
    .addColumn('message', 'text', (c) => c.notNull())
    .addColumn('signature', 'text', (c) => c.notNull())
    .addColumn('linked_at', timestamp, (c) => c.notNull())
    .execute();

  // The weekly prize's record, append-only (triggers below): the operator's review, approval
  // and payment of each week, one row per step. user_id is a plain number (no foreign key) so
  // that no account change can alter or remove a row.
  await withIdColumn(db, db.schema.createTable('prize_events'))
    .addColumn('week_id', 'text', (c) => c.notNull())
    .addColumn('step', 'text', (c) =>
      c.notNull().check(sql`step in ('reviewed', 'approved', 'paid')`),
    )
    .addColumn('run_id', 'text')
    .addColumn('user_id', 'integer')
    .addColumn('player_name', 'text', (c) => c.notNull())
    .addColumn('score', 'integer')
    .addColumn('wallet_address', 'text')
    .addColumn('prize', 'text')
    .addColumn('tx_signature', 'text', (c) => c.unique())
    /** Only for payments recorded before signatures were (winners:add kept an explorer URL). */
    .addColumn('tx_url', 'text')
    .addColumn('created_at', timestamp, (c) => c.notNull())
    .execute();
  await createIndexes(db, 'prize_events', { prize_events_week: ['week_id', 'step'] });
  // One payment per week, however many operators run prize:paid at once.
  await db.schema
    .createIndex('prize_events_one_payment')
    .on('prize_events')
    .column('week_id')
    .unique()
    .where(sql.ref('step'), '=', 'paid')
    .execute();

  await createPrizeEventsTriggers(db);

  // The payments winners:add recorded become paid steps; the old table goes (one record).
  await sql`
    insert into prize_events (week_id, step, player_name, prize, tx_url, created_at)
    select week_id, 'paid', player_name, prize, tx_url, paid_at
    from giveaway_winners order by paid_at, id`.execute(db);
  await db.schema.dropTable('giveaway_winners').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await createGiveawayWinners(db);
  await sql`
    insert into giveaway_winners (week_id, player_name, prize, tx_url, paid_at)
    select week_id, player_name, coalesce(prize, '1 SOL'),
      coalesce(tx_url, 'https://solscan.io/tx/' || tx_signature), created_at
    from prize_events where step = 'paid'`.execute(db);
  await db.schema.dropTable('prize_events').execute();
  if (isPostgres(db)) await sql`drop function prize_events_append_only()`.execute(db);
  await dropTables(db, ['user_wallets', 'wallet_nonces']);
}

/** This migration's append-only triggers (014 replaces them with db/append-only.ts's). */
export async function createPrizeEventsTriggers(db: Kysely<any>): Promise<void> {
  if (isPostgres(db)) {
    await sql`
      create function prize_events_append_only() returns trigger language plpgsql as $$
      begin
        raise exception 'prize_events is append-only';
      end
      $$`.execute(db);
    await sql`
      create trigger prize_events_no_change before update or delete on prize_events
      for each row execute function prize_events_append_only()`.execute(db);
    await sql`
      create trigger prize_events_no_truncate before truncate on prize_events
      for each statement execute function prize_events_append_only()`.execute(db);
  } else {
    await sql`
      create trigger prize_events_no_update before update on prize_events
      begin select raise(abort, 'prize_events is append-only'); end`.execute(db);
    await sql`
      create trigger prize_events_no_delete before delete on prize_events
      begin select raise(abort, 'prize_events is append-only'); end`.execute(db);
  }
}
