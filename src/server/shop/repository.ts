import { sql, type Kysely, type Transaction } from 'kysely';
import { DEFAULT_CHARACTER_KEY } from '#shared/characters.ts';
import type { Database } from '../db/database.ts';

type Db = Kysely<Database> | Transaction<Database>;

/** Keys with an ownership row; `default` has none (it is owned without a purchase). */
export async function ownedKeys(db: Db, userId: number): Promise<string[]> {
  const rows = await db
    .selectFrom('owned_characters')
    .select('character_key')
    .where('user_id', '=', userId)
    .execute();
  return rows.map((r) => r.character_key);
}

/**
 * Claims the character for the member; false when a row already exists. On PostgreSQL a
 * concurrent claim of the same key waits here for the first one to commit or roll back, so
 * exactly one of them goes on to pay.
 */
export async function insertOwnership(
  trx: Transaction<Database>,
  userId: number,
  characterKey: string,
  now: number,
): Promise<boolean> {
  const inserted = await trx
    .insertInto('owned_characters')
    .values({ user_id: userId, character_key: characterKey, acquired_at: now })
    .onConflict((oc) => oc.columns(['user_id', 'character_key']).doNothing())
    .returning('character_key')
    .executeTakeFirst();
  return inserted !== undefined;
}

/**
 * Selects the character only if the member owns it, in one statement, so a selection can never
 * point at a character the member does not hold. Returns false when nothing changed.
 */
export async function selectOwnedCharacter(
  db: Db,
  userId: number,
  characterKey: string,
): Promise<boolean> {
  const result = await db
    .updateTable('users')
    .set({ selected_character_key: characterKey })
    .where('id', '=', userId)
    .where((eb) =>
      characterKey === DEFAULT_CHARACTER_KEY
        ? sql<boolean>`1 = 1`
        : eb.exists(
            eb
              .selectFrom('owned_characters')
              .select(sql`1`.as('one'))
              .where('owned_characters.user_id', '=', userId)
              .where('owned_characters.character_key', '=', characterKey),
          ),
    )
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

export interface UserSummaryRow {
  id: number;
  username: string;
  coins: number;
  selected_character_key: string;
  created_at: number;
  owned: number;
}

/** Every member with balance and collection size, oldest first (operator listing). */
export function listUsers(db: Db): Promise<UserSummaryRow[]> {
  return db
    .selectFrom('users')
    .leftJoin('owned_characters', 'owned_characters.user_id', 'users.id')
    .select((eb) => [
      'users.id',
      'users.username',
      'users.coins',
      'users.selected_character_key',
      'users.created_at',
      eb.fn.count<number>('owned_characters.character_key').as('owned'),
    ])
    .groupBy([
      'users.id',
      'users.username',
      'users.coins',
      'users.selected_character_key',
      'users.created_at',
    ])
    .orderBy('users.id')
    .execute();
}

export function ownedRows(db: Db, userId: number) {
  return db
    .selectFrom('owned_characters')
    .select(['character_key', 'acquired_at'])
    .where('user_id', '=', userId)
    .orderBy('acquired_at')
    .orderBy('character_key')
    .execute();
}

/** The latest `limit` ledger rows of a member, oldest first, and how many there are in all. */
export async function latestLedgerEntries(db: Db, userId: number, limit: number) {
  const [rows, count] = await Promise.all([
    db
      .selectFrom('coin_ledger')
      .selectAll()
      .where('user_id', '=', userId)
      .orderBy('id', 'desc')
      .limit(limit)
      .execute(),
    db
      .selectFrom('coin_ledger')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('user_id', '=', userId)
      .executeTakeFirstOrThrow(),
  ]);
  return { entries: rows.reverse(), total: Number(count.n) };
}

/** Balance and ledger sum read by one statement, so both come from the same moment. */
export async function balanceAndLedgerSum(
  db: Db,
  userId: number,
): Promise<{ balance: number; sum: number }> {
  const row = await db
    .selectFrom('users')
    .select((eb) => [
      'users.coins',
      eb
        .selectFrom('coin_ledger')
        .select((sub) =>
          sub.fn.coalesce(sub.fn.sum<number>('coin_ledger.delta'), sql<number>`0`).as('s'),
        )
        .whereRef('coin_ledger.user_id', '=', 'users.id')
        .as('total'),
    ])
    .where('users.id', '=', userId)
    .executeTakeFirstOrThrow();
  return { balance: row.coins, sum: Number(row.total ?? 0) };
}

/** Coins in and out of a member's balance, by ledger reason. */
export async function ledgerTotalsByReason(db: Db, userId: number) {
  const rows = await db
    .selectFrom('coin_ledger')
    .select((eb) => [
      'reason',
      eb.fn.sum<number>('delta').as('total'),
      eb.fn.countAll<number>().as('n'),
    ])
    .where('user_id', '=', userId)
    .groupBy('reason')
    .orderBy('reason')
    .execute();
  return rows.map((r) => ({ reason: r.reason, total: Number(r.total), count: Number(r.n) }));
}
