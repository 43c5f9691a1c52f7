import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../db/database.ts';

/**
 * Processed images not yet posted (meme_images): the upload pipeline records each one for the
 * member who sent it, a post takes it once, and the sweep removes those nobody posted.
 */
type Db = Kysely<Database> | Transaction<Database>;

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
    /** The classifier's score (uploads/screening.ts); null when screening is off. */
    screenScore?: number | null;
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
      screen_score: image.screenScore ?? null,
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
      'screen_score',
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
