import type { Insertable, Kysely, Selectable, Transaction } from 'kysely';
import type { SolanaCluster } from '#shared/solana-cluster.ts';
import type { Database, PrizeEventsTable } from '../db/database.ts';
import { recordLiveEvent } from '../live/record.ts';

type Db = Kysely<Database> | Transaction<Database>;
export type PrizeEventRow = Selectable<PrizeEventsTable>;
export type NewPrizeEvent = Insertable<PrizeEventsTable>;

/** The run a step of the prize record is about, as the row it follows names it. */
export function runOf(row: Pick<NewPrizeEvent, 'run_id' | 'user_id' | 'player_name' | 'score'>) {
  return {
    run_id: row.run_id,
    user_id: row.user_id,
    player_name: row.player_name,
    score: row.score,
  };
}

/** The only write the prize record takes: a new row (migration 010's triggers refuse others). */
export async function appendPrizeEvent(db: Db, event: NewPrizeEvent): Promise<number> {
  const row = await db
    .insertInto('prize_events')
    .values(event)
    .returning('id')
    .executeTakeFirstOrThrow();
  // A payment shows in Recent Winners (a transaction's handle binds no publisher: its caller
  // announces after the commit).
  if (event.step === 'paid' && !db.isTransaction) {
    recordLiveEvent(db, { type: 'winners', data: { week: event.week_id } });
  }
  return row.id;
}

/** Approvals struck out by a withdrawal (migration 022). */
const withdrawnApprovals = (db: Db) => db.selectFrom('prize_withdrawals').select('approval_id');

/**
 * A week's standing steps, oldest first: a withdrawn approval is not among them, so every reader
 * (review, approval, payment, the wallet rule) sees the week back in review.
 */
export async function weekEvents(db: Db, weekId: string): Promise<PrizeEventRow[]> {
  return db
    .selectFrom('prize_events')
    .selectAll()
    .where('week_id', '=', weekId)
    .where('id', 'not in', withdrawnApprovals(db))
    .orderBy('id', 'asc')
    .execute();
}

/** Strikes out an approval (append-only); a second withdrawal of it fails on the unique key. */
export async function appendWithdrawal(
  db: Db,
  row: Insertable<Database['prize_withdrawals']>,
): Promise<void> {
  await db.insertInto('prize_withdrawals').values(row).execute();
}

/** The cluster a paid step was verified on: before migration 025 there was only mainnet-beta. */
export function paidCluster(row: Pick<PrizeEventRow, 'cluster'>): SolanaCluster {
  return row.cluster ?? 'mainnet-beta';
}

/**
 * The paid weeks, newest payment first. `verifiedOn`: only those verified on chain (a slot) on
 * that cluster, which is all the site shows (payments recorded before migration 017 were taken
 * on trust; a rehearsal's payment on devnet is not a mainnet site's winner).
 */
export async function paidWeeks(
  db: Db,
  limit: number,
  verifiedOn?: SolanaCluster,
): Promise<PrizeEventRow[]> {
  return db
    .selectFrom('prize_events')
    .selectAll()
    .where('step', '=', 'paid')
    .$if(verifiedOn !== undefined, (q) =>
      q
        .where('slot', 'is not', null)
        .where((eb) => eb.fn.coalesce('cluster', eb.val('mainnet-beta')), '=', verifiedOn!),
    )
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
}

/**
 * The week whose approval names this member and is not paid yet, if any: the payment may be on
 * its way to the approved wallet, so the member keeps it until the week is paid.
 */
export async function openApproval(db: Db, userId: number): Promise<PrizeEventRow | undefined> {
  const weeks = db
    .selectFrom('prize_events')
    .select('week_id')
    .where('user_id', '=', userId)
    .where('step', '=', 'approved');
  const events = await db
    .selectFrom('prize_events')
    .selectAll()
    .where('week_id', 'in', weeks)
    .where('step', 'in', ['approved', 'paid'])
    .where('id', 'not in', withdrawnApprovals(db))
    .orderBy('id', 'asc')
    .execute();
  const paid = new Set(events.filter((e) => e.step === 'paid').map((e) => e.week_id));
  // A week's last approval is the one its payment follows (prize:paid's lastApproval).
  const last = new Map(events.filter((e) => e.step === 'approved').map((e) => [e.week_id, e]));
  return [...last.values()].find((e) => !paid.has(e.week_id) && e.user_id === userId);
}

/** Every week's standing approval and payment steps, oldest first (weekEvents, for all weeks). */
export async function paymentSteps(db: Db): Promise<PrizeEventRow[]> {
  return db
    .selectFrom('prize_events')
    .selectAll()
    .where('step', 'in', ['approved', 'pending', 'expired', 'paid'])
    .where('id', 'not in', withdrawnApprovals(db))
    .orderBy('id', 'asc')
    .execute();
}
