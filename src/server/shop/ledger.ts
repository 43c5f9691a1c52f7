import { sql, type Kysely, type Transaction } from 'kysely';
import type { CoinLedgerTable, Database } from '../db/database.ts';
import { isUniqueViolation } from '../db/errors.ts';
import { HttpError } from '../http-error.ts';

export interface CreditInput {
  userId: number;
  amount: number;
  reason: 'game-run' | 'grant';
  /** For game runs: the run whose coins these are; a run credits once. */
  runId?: string;
  note?: string;
  now: number;
}

/**
 * Adds coins and writes the ledger row in the caller's transaction. A second credit for the
 * same run fails on the ledger's unique run_id, which rolls the balance change back with it.
 */
export async function applyCredit(
  trx: Transaction<Database>,
  input: CreditInput,
): Promise<{ balance: number }> {
  if (!Number.isSafeInteger(input.amount) || input.amount <= 0) {
    throw new HttpError(400, 'Amount must be a positive whole number', 'BAD_AMOUNT');
  }
  const updated = await trx
    .updateTable('users')
    .set({ coins: sql`coins + ${input.amount}` })
    .where('id', '=', input.userId)
    .returning('coins')
    .executeTakeFirst();
  if (!updated) throw new HttpError(404, 'User not found', 'NOT_FOUND');
  try {
    await trx
      .insertInto('coin_ledger')
      .values({
        user_id: input.userId,
        delta: input.amount,
        balance_after: updated.coins,
        reason: input.reason,
        run_id: input.runId ?? null,
        character_key: null,
        note: input.note ?? null,
        created_at: input.now,
      })
      .execute();
  } catch (error) {
    if (isUniqueViolation(error)) {
      throw new HttpError(409, 'Coins for this run have already been saved', 'ALREADY_CREDITED');
    }
    throw error;
  }
  return { balance: updated.coins };
}

export function creditCoins(
  db: Kysely<Database>,
  input: CreditInput,
): Promise<{ balance: number }> {
  return db.transaction().execute((trx) => applyCredit(trx, input));
}

export interface DebitInput {
  userId: number;
  amount: number;
  reason: 'purchase';
  characterKey: string;
  now: number;
}

/**
 * Takes coins only if the balance covers them (a guarded UPDATE, so two concurrent debits can
 * never both pass the check); returns undefined when there are not enough coins.
 */
export async function applyDebit(
  trx: Transaction<Database>,
  input: DebitInput,
): Promise<{ balance: number } | undefined> {
  const updated = await trx
    .updateTable('users')
    .set({ coins: sql`coins - ${input.amount}` })
    .where('id', '=', input.userId)
    .where('coins', '>=', input.amount)
    .returning('coins')
    .executeTakeFirst();
  if (!updated) return undefined;
  await trx
    .insertInto('coin_ledger')
    .values({
      user_id: input.userId,
      delta: -input.amount,
      balance_after: updated.coins,
      reason: input.reason,
      run_id: null,
      character_key: input.characterKey,
      note: null,
      created_at: input.now,
    })
    .execute();
  return { balance: updated.coins };
}

export async function ledgerSum(db: Kysely<Database>, userId: number): Promise<number> {
  const row = await db
    .selectFrom('coin_ledger')
    .select((eb) => eb.fn.coalesce(eb.fn.sum<number>('delta'), sql<number>`0`).as('total'))
    .where('user_id', '=', userId)
    .executeTakeFirstOrThrow();
  return Number(row.total);
}

export function ledgerEntries(
  db: Kysely<Database>,
  userId: number,
): Promise<Array<Omit<CoinLedgerTable, 'id'> & { id: number }>> {
  return db
    .selectFrom('coin_ledger')
    .selectAll()
    .where('user_id', '=', userId)
    .orderBy('id')
    .execute();
}
