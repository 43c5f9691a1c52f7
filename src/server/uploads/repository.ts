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

export async function insertMemeImage(
  db: Db,
  image: {
    userId: number;
    imageKey: string;
    thumbnailKey: string;
    thumbnailWidth: number;
    thumbnailHeight: number;
    phash: string;
    imageWidth: number;
    imageHeight: number;
    now: number;
  },
): Promise<void> {
  await db
    .insertInto('meme_images')
    .values({
      user_id: image.userId,
      image_key: image.imageKey,
      thumbnail_key: image.thumbnailKey,
      thumbnail_width: image.thumbnailWidth,
      thumbnail_height: image.thumbnailHeight,
      phash: image.phash,
      image_width: image.imageWidth,
      image_height: image.imageHeight,
      created_at: image.now,
    })
    .execute();
}

/**
 * Takes one unused processed image of this member (deleting the row that allowed it), so it
 * backs exactly one meme; undefined when the member has none for this key.
 */
export async function takeMemeImage(trx: Transaction<Database>, userId: number, imageKey: string) {
  const candidate = await trx
    .selectFrom('meme_images')
    .select([
      'id',
      'thumbnail_key',
      'thumbnail_width',
      'thumbnail_height',
      'phash',
      'image_width',
      'image_height',
    ])
    .where('user_id', '=', userId)
    .where('image_key', '=', imageKey)
    .orderBy('id')
    .limit(1)
    .executeTakeFirst();
  if (!candidate) return undefined;
  // On PostgreSQL a concurrent post of the same image may have taken it since the select;
  // only the transaction whose delete removed the row may use it.
  const removed = await trx
    .deleteFrom('meme_images')
    .where('id', '=', candidate.id)
    .executeTakeFirst();
  return removed.numDeletedRows > 0n ? candidate : undefined;
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

export function staleMemeImages(db: Db, before: number, limit: number) {
  return db
    .selectFrom('meme_images')
    .select(['id', 'image_key', 'thumbnail_key'])
    .where('created_at', '<', before)
    .orderBy('created_at')
    .limit(limit)
    .execute();
}

export async function deleteMemeImage(db: Db, id: number): Promise<void> {
  await db.deleteFrom('meme_images').where('id', '=', id).execute();
}
