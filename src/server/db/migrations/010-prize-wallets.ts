import { sql, type CreateTableBuilder, type Kysely } from 'kysely';
import {
  createIndexes,
  createPartialIndex,
  deletedWithUser,
  dropTables,
  isPostgres,
  oneRowPerUser,
  timestamp,
  withIdColumn,
} from '../migration-helpers.ts';
import { createGiveawayWinners } from './005-winners.ts';

/** The steps of the prize record this migration allowed (017 adds two). */
export const PRIZE_STEPS = `'reviewed', 'approved', 'paid'`;

export async function up(db: Kysely<any>): Promise<void> {
  // Sign In With Solana challenges: one row per message the server issued, spent by the link
  // that uses it (used_at) and refused after expires_at. A member's older rows are pruned when
  // they ask for a new one.
  await db.schema
    .createTable('wallet_nonces')
    .addColumn('nonce', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'integer', deletedWithUser)
    .$call(withSignInMessageColumns)
    .execute();
  await createIndexes(db, 'wallet_nonces', { wallet_nonces_user_id: ['user_id'] });

  // A member's proven wallet: the message and signature that proved it are kept, so anyone
  // auditing a payout can check the proof again. One wallet per member, one member per wallet.
  await db.schema
    .createTable('user_wallets')
    .addColumn('user_id', 'integer', oneRowPerUser)
    .addColumn('address', 'text', (c) => c.notNull().unique())
    .addColumn('message', 'text', (c) => c.notNull())
    .addColumn('signature', 'text', (c) => c.notNull())
    .addColumn('linked_at', timestamp, (c) => c.notNull())
    .execute();

  // The weekly prize's record, append-only (triggers below): the operator's review, approval
  // and payment of each week, one row per step. user_id is a plain number (no foreign key) so
  // that no account change can alter or remove a row.
  await prizeEventsTable(db, PRIZE_STEPS).execute();
  await createPrizeEventsIndexes(db);

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

/**
 * A Sign In With Solana message as the server issued it: the domain and URI it names, when it
 * was issued and stops being good, and when it was spent (024's sign-in nonces keep the same).
 */
export function withSignInMessageColumns<T extends string, C extends string>(
  table: CreateTableBuilder<T, C>,
) {
  return table
    .addColumn('domain', 'text', (c) => c.notNull())
    .addColumn('uri', 'text', (c) => c.notNull())
    .addColumn('issued_at', timestamp, (c) => c.notNull())
    .addColumn('expires_at', timestamp, (c) => c.notNull())
    .addColumn('used_at', timestamp);
}

/**
 * The prize record's table as this migration made it, allowing `steps`: 017 makes it again so
 * on SQLite (which cannot change a CHECK), with more steps and its payment columns after these.
 */
export function prizeEventsTable(db: Kysely<any>, steps: string) {
  return (
    withIdColumn(db, db.schema.createTable('prize_events'))
      .addColumn('week_id', 'text', (c) => c.notNull())
      .addColumn('step', 'text', (c) => c.notNull().check(sql.raw(`step in (${steps})`)))
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
  );
}

/** The prize record's indexes (017 makes them again with the table). */
export async function createPrizeEventsIndexes(db: Kysely<any>): Promise<void> {
  await createIndexes(db, 'prize_events', { prize_events_week: ['week_id', 'step'] });
  // One payment per week, however many operators run prize:paid at once.
  await createPartialIndex(db, 'prize_events_one_payment', {
    on: 'prize_events',
    columns: ['week_id'],
    where: ['step', '=', 'paid'],
    unique: true,
  });
}
