import { sql, type Kysely, type Transaction } from 'kysely';
import type { Database, MemeActivityKind } from '../db/database.ts';

type Db = Kysely<Database> | Transaction<Database>;

/**
 * Notes that a meme was posted, a vote cast or a report filed, in the transaction that does it
 * (migration 028). The row is never changed: deleting the meme, or taking the vote back, leaves
 * what happened counted.
 */
export async function recordActivity(db: Db, kind: MemeActivityKind, now: number): Promise<void> {
  await db.insertInto('meme_activity').values({ kind, created_at: now }).execute();
}

/**
 * How many of each kind happened on each UTC day from `fromDay` (a day number: epoch ms / a
 * day) on, counted by the database: `{ kind, day, n }` rows, days with none left out.
 */
export async function activityPerDay(
  db: Db,
  fromDay: number,
  dayMs: number,
): Promise<Array<{ kind: MemeActivityKind; day: number; n: number }>> {
  const day = sql<number>`${sql.ref('created_at')} / ${sql.lit(dayMs)}`;
  const rows = await db
    .selectFrom('meme_activity')
    .select((eb) => ['kind', day.as('day'), eb.fn.countAll<number | string>().as('n')])
    .where('created_at', '>=', fromDay * dayMs)
    .groupBy(['kind', day])
    .execute();
  return rows.map((row) => ({
    kind: row.kind,
    day: Math.floor(Number(row.day)),
    n: Number(row.n),
  }));
}
