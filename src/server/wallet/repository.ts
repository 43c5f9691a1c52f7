import type { Insertable, Kysely, Selectable, Transaction } from 'kysely';
import type {
  Database,
  UserWalletsTable,
  WalletChangesTable,
  WalletNoncesTable,
  WalletSignInNoncesTable,
} from '../db/database.ts';
import { isPostgres } from '../db/migration-helpers.ts';

type Db = Kysely<Database> | Transaction<Database>;
type WalletNonceRow = Selectable<WalletNoncesTable>;
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

/**
 * The guard that lets one use of a nonce through, however many arrive at once: one link
 * (`wallet_nonces`) or one sign-in (`wallet_sign_in_nonces`) per message.
 */
export async function spendNonce(
  db: Db,
  table: 'wallet_nonces' | 'wallet_sign_in_nonces',
  nonce: string,
  now: number,
): Promise<boolean> {
  const result = await db
    .updateTable(table)
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
    // The member's one wallet, replaced whole.
    .onConflict((oc) => oc.column('user_id').doUpdateSet(row))
    .execute();
}

export async function findWallet(db: Db, userId: number): Promise<UserWalletRow | undefined> {
  return db.selectFrom('user_wallets').selectAll().where('user_id', '=', userId).executeTakeFirst();
}

/**
 * The member's wallet, read inside a transaction that holds it until commit (PostgreSQL: FOR
 * UPDATE; SQLite has one writer at a time): a wallet change and a prize approval of the same
 * member take turns, so an approval never names a wallet that is being replaced.
 */
export async function lockWallet(
  trx: Transaction<Database>,
  userId: number,
): Promise<UserWalletRow | undefined> {
  const query = trx.selectFrom('user_wallets').selectAll().where('user_id', '=', userId);
  return (isPostgres(trx) ? query.forUpdate() : query).executeTakeFirst();
}

/** The wallet record (append-only, migration 014): one row per wallet the member proved. */
export async function recordWalletChange(
  db: Db,
  change: Insertable<WalletChangesTable>,
): Promise<void> {
  await db.insertInto('wallet_changes').values(change).execute();
}

export async function findWallets(db: Db, userIds: readonly number[]): Promise<UserWalletRow[]> {
  if (userIds.length === 0) return [];
  return db.selectFrom('user_wallets').selectAll().where('user_id', 'in', userIds).execute();
}

type WalletSignInNonceRow = Selectable<WalletSignInNoncesTable>;

/** A sign-in message issued to a visitor (docs/decisions/029-holders-at-home.md). */
export async function insertSignInNonce(db: Db, row: WalletSignInNonceRow): Promise<void> {
  await db.insertInto('wallet_sign_in_nonces').values(row).execute();
}

export async function findSignInNonce(
  db: Db,
  nonce: string,
): Promise<WalletSignInNonceRow | undefined> {
  return db
    .selectFrom('wallet_sign_in_nonces')
    .selectAll()
    .where('nonce', '=', nonce)
    .executeTakeFirst();
}

/** Forgets sign-in messages that expired before `before` (the maintenance timer). */
export async function pruneSignInNonces(db: Db, before: number): Promise<void> {
  await db.deleteFrom('wallet_sign_in_nonces').where('expires_at', '<', before).execute();
}
