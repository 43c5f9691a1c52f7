import type { Kysely } from 'kysely';
import type { MemeCategory } from '#shared/categories.ts';
import type { Database } from '../db/database.ts';
import { objectPathForKey } from './object-paths.ts';
import { memeFields } from './repository.ts';

/**
 * A member's memes, newest first: the visible ones, or with `hidden` those a moderator hid too
 * (the console's view of the member).
 */
export async function memeRowsOfMember(
  db: Kysely<Database>,
  userId: number,
  options: { limit: number; hidden: boolean },
) {
  let query = db
    .selectFrom('memes')
    .select([...memeFields, 'hidden'])
    .where('user_id', '=', userId);
  if (!options.hidden) query = query.where('hidden', '=', 0);
  return query.orderBy('id', 'desc').limit(options.limit).execute();
}

/** A member's visible memes, newest first, with their votes: their page's gallery. */
export async function memesOfMember(db: Kysely<Database>, userId: number, limit: number) {
  const rows = await memeRowsOfMember(db, userId, { limit, hidden: false });
  return rows.map((row) => ({
    id: row.id,
    title: row.title,
    // Written by the upload route, which takes only these (memeCategorySchema).
    category: row.category as MemeCategory,
    thumbnailUrl: objectPathForKey(row.thumbnail_key),
    thumbnailWidth: row.thumbnail_width,
    thumbnailHeight: row.thumbnail_height,
    upvotes: row.upvotes,
    downvotes: row.downvotes,
    createdAt: row.created_at,
  }));
}
