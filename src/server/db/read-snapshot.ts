import type { Kysely, Transaction } from 'kysely';
import type { Database } from './database.ts';
import { isPostgres } from './migration-helpers.ts';

/**
 * Runs several reads against one snapshot of the data, so writes committed meanwhile cannot
 * show in one read and not in the next (a balance read before a purchase, its ledger after).
 * PostgreSQL: a repeatable-read transaction. SQLite: one transaction, whose first read fixes
 * the snapshot in WAL mode.
 */
export function readSnapshot<T>(
  db: Kysely<Database>,
  reads: (trx: Transaction<Database>) => Promise<T>,
): Promise<T> {
  const transaction = isPostgres(db)
    ? db.transaction().setIsolationLevel('repeatable read')
    : db.transaction();
  return transaction.execute(reads);
}
