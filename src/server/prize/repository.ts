import type { Insertable, Kysely, Selectable, Transaction } from 'kysely';
import type { Database, PrizeEventsTable } from '../db/database.ts';

type Db = Kysely<Database> | Transaction<Database>;
export type PrizeEventRow = Selectable<PrizeEventsTable>;
export type NewPrizeEvent = Insertable<PrizeEventsTable>;

/** The only write the prize record takes: a new row (migration 010's triggers refuse others). */
export async function appendPrizeEvent(db: Db, event: NewPrizeEvent): Promise<number> {
  const row = await db
    .insertInto('prize_events')
    .values(event)
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

/** A week's steps, oldest first. */
export async function weekEvents(db: Db, weekId: string): Promise<PrizeEventRow[]> {
  return db
    .selectFrom('prize_events')
    .selectAll()
    .where('week_id', '=', weekId)
    .orderBy('id', 'asc')
    .execute();
}

/** The paid weeks, newest payment first. */
export async function paidWeeks(db: Db, limit: number): Promise<PrizeEventRow[]> {
  return db
    .selectFrom('prize_events')
    .selectAll()
    .where('step', '=', 'paid')
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
}
