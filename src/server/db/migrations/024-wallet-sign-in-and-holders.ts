import { sql, type Kysely } from 'kysely';
import { createIndexes, dropTables, flag, oneRowPerUser, timestamp } from '../migration-helpers.ts';
import { withSignInMessageColumns } from './010-prize-wallets.ts';

/**
 * Issue 45 (docs/decisions/029-holders-at-home.md): signing in with a wallet, member pages and
 * holder perks.
 * - `wallet_sign_in_nonces`: the sign-in messages the server issued to visitors (a link's
 *   nonces, `wallet_nonces`, belong to a member; these belong to nobody until spent).
 * - `holder_balances`: each member's last read of their proven wallet's balance of the site's
 *   token, the tier it reached, and when to read it again. `address` is the wallet that was read:
 *   a row for another address than the member's wallet now says nothing about them.
 * - `users.show_wallet`: the member shows their wallet (shortened) on their page, 0 or 1.
 * - `deleted_accounts`: a deleted member's name, so their page says the account is gone.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('wallet_sign_in_nonces')
    .addColumn('nonce', 'text', (c) => c.primaryKey())
    .$call(withSignInMessageColumns)
    .execute();
  await createIndexes(db, 'wallet_sign_in_nonces', {
    wallet_sign_in_nonces_expires_at: ['expires_at'],
  });

  await db.schema
    .createTable('holder_balances')
    .addColumn('user_id', 'integer', oneRowPerUser)
    .addColumn('address', 'text', (c) => c.notNull())
    /** Base units as a decimal string (a u64 sum can pass 2^53). */
    .addColumn('amount', 'text', (c) => c.notNull())
    .addColumn('decimals', 'integer', (c) => c.notNull())
    .addColumn('tier', 'text', (c) => c.check(sql`tier in ('holder', 'whale')`))
    .addColumn('checked_at', timestamp, (c) => c.notNull())
    .addColumn('next_check_at', timestamp, (c) => c.notNull())
    .execute();
  await createIndexes(db, 'holder_balances', { holder_balances_next_check: ['next_check_at'] });

  await db.schema
    .alterTable('users')
    .addColumn('show_wallet', 'integer', flag('show_wallet'))
    .execute();

  await db.schema
    .createTable('deleted_accounts')
    .addColumn('username_lower', 'text', (c) => c.primaryKey())
    .addColumn('deleted_at', timestamp, (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('users').dropColumn('show_wallet').execute();
  await dropTables(db, ['deleted_accounts', 'holder_balances', 'wallet_sign_in_nonces']);
}
