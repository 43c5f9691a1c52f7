import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../db/database.ts';

type Db = Kysely<Database> | Transaction<Database>;

export async function insertUpload(
  db: Db,
  upload: { key: string; userId: number; now: number; expiresAt: number },
): Promise<void> {
  await db
    .insertInto('uploads')
    .values({
      key: upload.key,
      user_id: upload.userId,
      created_at: upload.now,
      expires_at: upload.expiresAt,
    })
    .execute();
}

export function findUpload(db: Db, key: string) {
  return db.selectFrom('uploads').selectAll().where('key', '=', key).executeTakeFirst();
}

/**
 * Marks the member's upload as taken for processing; false when it is not theirs, already
 * taken or too old. The guard in the WHERE clause makes two concurrent calls take it once.
 */
export async function consumeUpload(
  db: Db,
  opts: { key: string; userId: number; now: number; notExpiredBefore: number },
): Promise<boolean> {
  const result = await db
    .updateTable('uploads')
    .set({ consumed_at: opts.now })
    .where('key', '=', opts.key)
    .where('user_id', '=', opts.userId)
    .where('consumed_at', 'is', null)
    .where('expires_at', '>', opts.notExpiredBefore)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

export function expiredUploads(db: Db, before: number, limit: number) {
  return db
    .selectFrom('uploads')
    .select('key')
    .where('expires_at', '<', before)
    .orderBy('expires_at')
    .limit(limit)
    .execute();
}

export async function deleteUpload(db: Db, key: string): Promise<void> {
  await db.deleteFrom('uploads').where('key', '=', key).execute();
}
