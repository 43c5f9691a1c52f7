import { sql, type Kysely, type Selectable, type Transaction } from 'kysely';
import type { Database, HolderBalancesTable } from '../db/database.ts';

type Db = Kysely<Database> | Transaction<Database>;
export type HolderBalanceRow = Selectable<HolderBalancesTable>;

/**
 * holder_balances (migration 024): one row per member, the last read of their proven wallet. A
 * row counts only while its address is the member's wallet now (`user_wallets`): a member who
 * changed wallets holds nothing here until the new one is read.
 */

export async function saveHolderBalance(db: Db, row: HolderBalanceRow): Promise<void> {
  await db
    .insertInto('holder_balances')
    .values(row)
    // The member's one row, replaced whole.
    .onConflict((oc) => oc.column('user_id').doUpdateSet(row))
    .execute();
}

/** The reads that count: those of a member's wallet now (a changed wallet's old read does not). */
function currentReads(db: Db) {
  return db
    .selectFrom('holder_balances as h')
    .innerJoin('user_wallets as w', (join) =>
      join.onRef('w.user_id', '=', 'h.user_id').onRef('w.address', '=', 'h.address'),
    );
}

/** The member's read, when it is of their wallet now. */
export async function currentHolderBalance(
  db: Db,
  userId: number,
): Promise<HolderBalanceRow | undefined> {
  return currentReads(db).selectAll('h').where('h.user_id', '=', userId).executeTakeFirst();
}

/** The tier each of `userIds` holds now (members below every tier are not in the map). */
export async function currentTiers(
  db: Db,
  userIds: readonly number[],
): Promise<Map<number, 'holder' | 'whale'>> {
  if (userIds.length === 0) return new Map();
  const rows = await currentReads(db)
    .select(['h.user_id', 'h.tier'])
    .where('h.user_id', 'in', [...new Set(userIds)])
    .where('h.tier', 'is not', null)
    .execute();
  return new Map(rows.map((row) => [row.user_id, row.tier!]));
}

/**
 * Wallets to read now, at most `limit`: never read, changed since their read, or due; the
 * longest waiting first.
 */
export async function walletsDue(
  db: Db,
  now: number,
  limit: number,
): Promise<{ user_id: number; address: string }[]> {
  return db
    .selectFrom('user_wallets as w')
    .leftJoin('holder_balances as h', 'h.user_id', 'w.user_id')
    .select(['w.user_id', 'w.address'])
    .where((eb) =>
      eb.or([
        eb('h.user_id', 'is', null),
        eb('h.address', '!=', eb.ref('w.address')),
        eb('h.next_check_at', '<=', now),
      ]),
    )
    .orderBy(sql`coalesce(h.next_check_at, 0)`)
    .orderBy('w.user_id')
    .limit(limit)
    .execute();
}

/** After a failed read: the member's wallet is tried again from `at`, the last read kept. */
export async function postponeCheck(db: Db, userId: number, at: number): Promise<void> {
  await db
    .updateTable('holder_balances')
    .set({ next_check_at: at })
    .where('user_id', '=', userId)
    .execute();
}
