import type { Kysely, Selectable, Transaction } from 'kysely';
import type { Database, UserWalletsTable, WalletNoncesTable } from '../db/database.ts';

type Db = Kysely<Database> | Transaction<Database>;
export type WalletNonceRow = Selectable<WalletNoncesTable>;
export type UserWalletRow = Selectable<UserWalletsTable>;

/**
 * A new challenge replaces the member's unused ones and clears their expired ones, so a member
 * holds at most one open challenge plus the spent ones still needed to name a reuse.
 */
export async function replaceNonce(db: Kysely<Database>, row: WalletNonceRow): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await trx
      .deleteFrom('wallet_nonces')
      .where('user_id', '=', row.user_id)
      .where((eb) => eb.or([eb('used_at', 'is', null), eb('expires_at', '<=', row.issued_at)]))
      .execute();
    await trx.insertInto('wallet_nonces').values(row).execute();
  });
}

export async function findNonce(
  db: Db,
  nonce: string,
  userId: number,
): Promise<WalletNonceRow | undefined> {
  return db
    .selectFrom('wallet_nonces')
    .selectAll()
    .where('nonce', '=', nonce)
    .where('user_id', '=', userId)
    .executeTakeFirst();
}

/** The guard that lets one link per nonce through, however many arrive at once. */
export async function spendNonce(db: Db, nonce: string, now: number): Promise<boolean> {
  const result = await db
    .updateTable('wallet_nonces')
    .set({ used_at: now })
    .where('nonce', '=', nonce)
    .where('used_at', 'is', null)
    .where('expires_at', '>', now)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

export async function walletOwner(db: Db, address: string): Promise<number | undefined> {
  const row = await db
    .selectFrom('user_wallets')
    .select('user_id')
    .where('address', '=', address)
    .executeTakeFirst();
  return row?.user_id;
}

export async function saveWallet(db: Db, row: UserWalletRow): Promise<void> {
  await db
    .insertInto('user_wallets')
    .values(row)
    .onConflict((oc) =>
      oc.column('user_id').doUpdateSet({
        address: row.address,
        message: row.message,
        signature: row.signature,
        linked_at: row.linked_at,
      }),
    )
    .execute();
}

export async function findWallet(db: Db, userId: number): Promise<UserWalletRow | undefined> {
  return db.selectFrom('user_wallets').selectAll().where('user_id', '=', userId).executeTakeFirst();
}

export async function findWallets(db: Db, userIds: readonly number[]): Promise<UserWalletRow[]> {
  if (userIds.length === 0) return [];
  return db.selectFrom('user_wallets').selectAll().where('user_id', 'in', userIds).execute();
}
