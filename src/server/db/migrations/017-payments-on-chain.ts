import { sql, type Kysely } from 'kysely';
import { appendOnly, dropAppendOnly } from '../append-only.ts';
import {
  createIndexes,
  createPartialIndex,
  isPostgres,
  timestamp,
  withIdColumn,
} from '../migration-helpers.ts';
import {
  createPrizeEventsIndexes,
  PRIZE_STEPS as OLD_STEPS,
  prizeEventsTable,
} from './010-prize-wallets.ts';

const NEW_STEPS = `'reviewed', 'approved', 'pending', 'expired', 'paid'`;

/**
 * Payments proved on chain (docs/decisions/023-prize-paid-on-chain.md): the prize record takes
 * a `pending` step (a payment prepared with its reference key and memo) and an `expired` one (it
 * never landed, with the reason), and a paid step keeps the transaction's slot, block time and
 * amount. Burns are recorded in token_burns, append-only, only once verified.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await rebuildPrizeEvents(db, NEW_STEPS, true);
  await createPartialIndex(db, 'prize_events_one_reference', {
    on: 'prize_events',
    columns: ['reference'],
    where: ['step', '=', 'pending'],
    unique: true,
  });

  await withIdColumn(db, db.schema.createTable('token_burns'))
    .addColumn('signature', 'text', (c) => c.notNull().unique())
    .addColumn('slot', 'bigint', (c) => c.notNull())
    .addColumn('block_time', timestamp, (c) => c.notNull())
    .addColumn('mint', 'text', (c) => c.notNull())
    .addColumn('token_program', 'text', (c) => c.notNull())
    /** Base units, as a decimal string: a u64 does not fit a double. */
    .addColumn('amount', 'text', (c) => c.notNull())
    .addColumn('decimals', 'integer', (c) => c.notNull())
    .addColumn('authority', 'text', (c) => c.notNull())
    .addColumn('recorded_at', timestamp, (c) => c.notNull())
    .execute();
  await createIndexes(db, 'token_burns', { token_burns_time: ['block_time'] });
  await appendOnly(db, 'token_burns');
}

export async function down(db: Kysely<any>): Promise<void> {
  await dropAppendOnly(db, 'token_burns');
  await db.schema.dropTable('token_burns').execute();
  await db.schema.dropIndex('prize_events_one_reference').execute();
  await rebuildPrizeEvents(db, OLD_STEPS, false);
}

const PAYMENT_COLUMNS: Record<string, 'text' | 'bigint'> = {
  reference: 'text',
  memo: 'text',
  lamports: 'bigint',
  slot: 'bigint',
  block_time: timestamp,
  reason: 'text',
};

/**
 * Changes the steps prize_events allows and adds (or drops) the payment columns. PostgreSQL
 * alters the table in place; SQLite cannot change a CHECK, so the table is copied into a new
 * one with the same rows and ids (the triggers go and come back around the copy).
 */
async function rebuildPrizeEvents(db: Kysely<any>, steps: string, withPayment: boolean) {
  if (isPostgres(db)) {
    await sql`alter table prize_events drop constraint prize_events_step_check`.execute(db);
    if (!withPayment) {
      // The owner may set the append-only trigger aside to undo this migration's steps.
      await sql`alter table prize_events disable trigger prize_events_append_only`.execute(db);
      await sql`delete from prize_events where step in ('pending', 'expired')`.execute(db);
      await sql`alter table prize_events enable trigger prize_events_append_only`.execute(db);
    }
    await sql
      .raw(
        `alter table prize_events add constraint prize_events_step_check check (step in (${steps}))`,
      )
      .execute(db);
    for (const [column, type] of Object.entries(PAYMENT_COLUMNS)) {
      await (
        withPayment
          ? db.schema.alterTable('prize_events').addColumn(column, type)
          : db.schema.alterTable('prize_events').dropColumn(column)
      ).execute();
    }
    return;
  }
  await dropAppendOnly(db, 'prize_events');
  const base = [
    'id',
    'week_id',
    'step',
    'run_id',
    'user_id',
    'player_name',
    'score',
    'wallet_address',
    'prize',
    'tx_signature',
    'tx_url',
    'created_at',
  ];
  await sql`alter table prize_events rename to prize_events_old`.execute(db);
  await sql`drop index prize_events_week`.execute(db);
  await sql`drop index prize_events_one_payment`.execute(db);
  let table = prizeEventsTable(db, steps);
  if (withPayment) {
    for (const [column, type] of Object.entries(PAYMENT_COLUMNS)) {
      table = table.addColumn(column, type);
    }
  }
  await table.execute();
  const columns = sql.raw(base.join(', '));
  await sql`
    insert into prize_events (${columns}) select ${columns} from prize_events_old
    ${withPayment ? sql`` : sql.raw(`where step in (${OLD_STEPS})`)} order by id`.execute(db);
  await sql`drop table prize_events_old`.execute(db);
  await createPrizeEventsIndexes(db);
  await appendOnly(db, 'prize_events');
}
