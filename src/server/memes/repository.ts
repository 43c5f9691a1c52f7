import { sql, type Kysely, type Transaction } from 'kysely';
import type { VoteType } from '#shared/api/memes.ts';
import type { Database } from '../db/database.ts';
import { isPostgres } from '../db/migration-helpers.ts';
import { voteTransition } from './vote-rules.ts';

export interface MemeRow {
  id: number;
  title: string;
  category: string;
  image_key: string;
  thumbnail_key: string;
  thumbnail_width: number;
  thumbnail_height: number;
  upvotes: number;
  downvotes: number;
  created_at: number;
}

const memeColumns = [
  'memes.id',
  'memes.title',
  'memes.category',
  'memes.image_key',
  'memes.thumbnail_key',
  'memes.thumbnail_width',
  'memes.thumbnail_height',
  'memes.upvotes',
  'memes.downvotes',
  'memes.created_at',
] as const;

/**
 * Visible memes newest first, keyed by id: ids only grow, so `id < before` gives the next page
 * without duplicates or gaps however many memes arrive in between.
 */
export async function listVisibleMemes(
  db: Kysely<Database>,
  opts: { category: string | undefined; limit: number; beforeId: number | undefined },
): Promise<MemeRow[]> {
  let query = db.selectFrom('memes').where('memes.hidden', '=', 0);
  if (opts.category) query = query.where('memes.category', '=', opts.category);
  if (opts.beforeId !== undefined) query = query.where('memes.id', '<', opts.beforeId);
  return query.orderBy('memes.id', 'desc').limit(opts.limit).select(memeColumns).execute();
}

/** One voter's votes on the given memes. */
export async function votesOf(
  db: Kysely<Database>,
  voter: string,
  memeIds: number[],
): Promise<Map<number, VoteType>> {
  if (memeIds.length === 0) return new Map();
  const rows = await db
    .selectFrom('meme_votes')
    .select(['meme_id', 'vote_type'])
    .where('voter', '=', voter)
    .where('meme_id', 'in', memeIds)
    .execute();
  return new Map(rows.map((r) => [r.meme_id, r.vote_type]));
}

export async function insertMeme(
  db: Kysely<Database> | Transaction<Database>,
  meme: {
    userId: number;
    title: string;
    category: string;
    imageKey: string;
    thumbnailKey: string;
    thumbnailWidth: number;
    thumbnailHeight: number;
    now: number;
  },
): Promise<MemeRow> {
  const row = await db
    .insertInto('memes')
    .values({
      user_id: meme.userId,
      title: meme.title,
      category: meme.category,
      image_key: meme.imageKey,
      thumbnail_key: meme.thumbnailKey,
      thumbnail_width: meme.thumbnailWidth,
      thumbnail_height: meme.thumbnailHeight,
      created_at: meme.now,
    })
    .returning([
      'id',
      'title',
      'category',
      'image_key',
      'thumbnail_key',
      'thumbnail_width',
      'thumbnail_height',
      'upvotes',
      'downvotes',
      'created_at',
    ])
    .executeTakeFirstOrThrow();
  return row;
}

export interface VoteResult {
  upvotes: number;
  downvotes: number;
  myVote: VoteType | null;
}

/**
 * Applies one vote and the count change it implies in one transaction. The meme row is read
 * first under a lock (PostgreSQL `FOR UPDATE`; SQLite runs one transaction at a time), so
 * votes on one meme queue up and each sees the one before it: the counts always equal the
 * rows in meme_votes. Null when the meme does not exist or is hidden.
 */
export async function castVote(
  db: Kysely<Database>,
  vote: { memeId: number; voter: string; voteType: VoteType; now: number },
): Promise<VoteResult | null> {
  const lock = isPostgres(db);
  return db.transaction().execute(async (trx) => {
    let locked = trx
      .selectFrom('memes')
      .select(['upvotes', 'downvotes'])
      .where('id', '=', vote.memeId)
      .where('hidden', '=', 0);
    if (lock) locked = locked.forUpdate();
    const meme = await locked.executeTakeFirst();
    if (!meme) return null;
    // Read only once the lock is held: PostgreSQL would not re-read a joined row after waiting.
    const current =
      (
        await trx
          .selectFrom('meme_votes')
          .select('vote_type')
          .where('meme_id', '=', vote.memeId)
          .where('voter', '=', vote.voter)
          .executeTakeFirst()
      )?.vote_type ?? null;
    const change = voteTransition(current, vote.voteType);
    if (current === null) {
      await trx
        .insertInto('meme_votes')
        .values({
          meme_id: vote.memeId,
          voter: vote.voter,
          vote_type: vote.voteType,
          created_at: vote.now,
        })
        .execute();
    } else if (change.next === null) {
      await trx
        .deleteFrom('meme_votes')
        .where('meme_id', '=', vote.memeId)
        .where('voter', '=', vote.voter)
        .execute();
    } else {
      await trx
        .updateTable('meme_votes')
        .set({ vote_type: change.next, created_at: vote.now })
        .where('meme_id', '=', vote.memeId)
        .where('voter', '=', vote.voter)
        .execute();
    }
    await trx
      .updateTable('memes')
      .set({
        upvotes: sql`upvotes + ${change.upvotes}`,
        downvotes: sql`downvotes + ${change.downvotes}`,
      })
      .where('id', '=', vote.memeId)
      .execute();
    // The row is locked (or the database is ours alone), so these are the stored counts.
    return {
      upvotes: meme.upvotes + change.upvotes,
      downvotes: meme.downvotes + change.downvotes,
      myVote: change.next,
    };
  });
}

/** Hides or shows a meme; false when there is no such meme. */
export async function setMemeHidden(
  db: Kysely<Database>,
  id: number,
  hidden: boolean,
): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    const result = await trx
      .updateTable('memes')
      .set({ hidden: hidden ? 1 : 0 })
      .where('id', '=', id)
      .executeTakeFirst();
    if (result.numUpdatedRows === 0n) return false;
    return true;
  });
}

/** For the operator's list: newest first, hidden ones too, with the uploader's name. */
export async function listAllMemes(db: Kysely<Database>, limit: number) {
  return db
    .selectFrom('memes')
    .leftJoin('users', 'users.id', 'memes.user_id')
    .select([
      'memes.id',
      'memes.title',
      'memes.category',
      'memes.upvotes',
      'memes.downvotes',
      'memes.hidden',
      'memes.created_at',
      'memes.image_key',
      'users.username',
    ])
    .orderBy('memes.id', 'desc')
    .limit(limit)
    .execute();
}

/**
 * Deletes the meme (its votes go with it) and returns the image keys nothing else refers to
 * any more: identical uploads share one content-addressed object, so an image another meme or
 * an unused processed upload still names must stay.
 */
export async function deleteMemeRow(
  db: Kysely<Database>,
  id: number,
): Promise<{ deleted: boolean; orphanKeys: string[] }> {
  return db.transaction().execute(async (trx) => {
    const meme = await trx
      .deleteFrom('memes')
      .where('id', '=', id)
      .returning(['image_key', 'thumbnail_key'])
      .executeTakeFirst();
    if (!meme) return { deleted: false, orphanKeys: [] };
    const orphanKeys: string[] = [];
    for (const key of [meme.image_key, meme.thumbnail_key]) {
      if (!(await isObjectReferenced(trx, key))) orphanKeys.push(key);
    }
    return { deleted: true, orphanKeys };
  });
}

/**
 * Removes a member's memes (their votes go with them) and processed uploads, inside the
 * caller's transaction; answers the image keys they named, for the caller to delete from the
 * store once no other row names them.
 */
export async function deleteMemesOfUser(trx: Transaction<Database>, userId: number): Promise<string[]> {
  const memes = await trx.deleteFrom('memes').where('user_id', '=', userId).returning(['image_key', 'thumbnail_key']).execute();
  const images = await trx.deleteFrom('meme_images').where('user_id', '=', userId).returning(['image_key', 'thumbnail_key']).execute();
  return [...new Set([...memes, ...images].flatMap((m) => [m.image_key, m.thumbnail_key]))];
}

/** Whether any meme or processed upload (used or not) still names this object. */
export async function isObjectReferenced(
  db: Kysely<Database> | Transaction<Database>,
  key: string,
): Promise<boolean> {
  for (const table of ['memes', 'meme_images'] as const) {
    const row = await db
      .selectFrom(table)
      .select('id')
      .where((eb) => eb.or([eb('image_key', '=', key), eb('thumbnail_key', '=', key)]))
      .limit(1)
      .executeTakeFirst();
    if (row) return true;
  }
  return false;
}

/** Counts that disagree with the votes stored; empty when every meme is exact. */
export async function findCountMismatches(db: Kysely<Database>) {
  return db
    .selectFrom('memes')
    .select((eb) => [
      'memes.id',
      'memes.upvotes',
      'memes.downvotes',
      eb
        .selectFrom('meme_votes')
        .select((v) => v.fn.countAll<number>().as('n'))
        .whereRef('meme_votes.meme_id', '=', 'memes.id')
        .where('meme_votes.vote_type', '=', 'up')
        .as('stored_up'),
      eb
        .selectFrom('meme_votes')
        .select((v) => v.fn.countAll<number>().as('n'))
        .whereRef('meme_votes.meme_id', '=', 'memes.id')
        .where('meme_votes.vote_type', '=', 'down')
        .as('stored_down'),
    ])
    .execute()
    .then((rows) =>
      rows.filter(
        (r) => Number(r.stored_up) !== r.upvotes || Number(r.stored_down) !== r.downvotes,
      ),
    );
}
