import type { Transaction } from 'kysely';
import type { Database } from '../db/database.ts';

/**
 * Deletes a member's account row; what is the member's alone goes with it (ON DELETE CASCADE:
 * sessions, ledger, characters, wallet, upload rows). Their runs, memes and images are their
 * domains' to delete first, in the same transaction.
 */
export async function deleteAccountRow(trx: Transaction<Database>, userId: number): Promise<void> {
  await trx.deleteFrom('users').where('id', '=', userId).execute();
}
