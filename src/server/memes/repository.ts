import { sql, type Kysely, type Selectable, type Transaction } from 'kysely';
import type { MemeSort, VoteType } from '#shared/api/memes.ts';
import { hotRank, TOP_WINDOW_MS } from '#shared/meme-ranking.ts';
import type { Database, MemesTable } from '../db/database.ts';
import { isPostgres } from '../db/migration-helpers.ts';
import { VISITOR_VOTES_PER_NETWORK, visitorVoteFits, voteTransition } from './vote-rules.ts';
import { recordActivity } from './activity.ts';

/** A meme as the gallery shows it. */
export const memeFields = [
  'id',
  // The author, whose name the card shows (and links to their page).
  'user_id',
  'title',
  'category',
  'image_key',
  'thumbnail_key',
  'thumbnail_width',
  'thumbnail_height',
  'upvotes',
  'downvotes',
  'created_at',
] as const;

export type MemeRow = Pick<Selectable<MemesTable>, (typeof memeFields)[number]>;

const memeColumns = memeFields.map((field) => `memes.${field}` as const);

/**
 * Visible memes newest first, keyed by id: ids only grow, so `id < before` gives the next page
 * without duplicates or gaps however many memes arrive in between.
 */
export async function listNewMemes(
  db: Kysely<Database>,
  opts: { category: string | undefined; limit: number; beforeId: number | undefined },
): Promise<MemeRow[]> {
  let query = db.selectFrom('memes').where('memes.hidden', '=', 0);
  if (opts.category) query = query.where('memes.category', '=', opts.category);
  if (opts.beforeId !== undefined) query = query.where('memes.id', '<', opts.beforeId);
  return query.orderBy('memes.id', 'desc').limit(opts.limit).select(memeColumns).execute();
}

/** The visible memes among `ids`, in the order of `ids`. */
export async function visibleMemesByIds(db: Kysely<Database>, ids: number[]): Promise<MemeRow[]> {
  if (ids.length === 0) return [];
  const rows = await db
    .selectFrom('memes')
    .where('memes.hidden', '=', 0)
    .where('memes.id', 'in', ids)
    .select(memeColumns)
    .execute();
  const byId = new Map(rows.map((r) => [r.id, r]));
  return ids.flatMap((id) => byId.get(id) ?? []);
}

/** One visible meme (with its display image's size), or undefined when hidden or gone. */
export async function findVisibleMeme(db: Kysely<Database>, id: number) {
  return db
    .selectFrom('memes')
    .where('memes.hidden', '=', 0)
    .where('memes.id', '=', id)
    .select([...memeColumns, 'memes.image_width', 'memes.image_height'])
    .executeTakeFirst();
}

/**
 * The order of a Top or Hot list at `now`, at most `max` ids. Top: the week's memes by score,
 * then up votes, then newest. Hot: Lemmy's rank (see meme-ranking.ts) over the `candidates`
 * newest memes, ranked here since SQLite has no portable log10/pow; older memes rank near 0
 * anyway (a day-old meme needs ~1000 points to match a new one).
 */
export async function rankedMemeIds(
  db: Kysely<Database>,
  opts: { sort: Exclude<MemeSort, 'new'>; category: string | undefined; now: number; max: number },
  candidates = 5000,
): Promise<number[]> {
  let query = db.selectFrom('memes').where('memes.hidden', '=', 0);
  if (opts.category) query = query.where('memes.category', '=', opts.category);
  if (opts.sort === 'top') {
    const rows = await query
      .where('memes.created_at', '>=', opts.now - TOP_WINDOW_MS)
      .select('memes.id')
      .orderBy(sql`memes.upvotes - memes.downvotes`, 'desc')
      .orderBy('memes.upvotes', 'desc')
      .orderBy('memes.id', 'desc')
      .limit(opts.max)
      .execute();
    return rows.map((r) => r.id);
  }
  const rows = await query
    .select(['memes.id', 'memes.upvotes', 'memes.downvotes', 'memes.created_at'])
    .orderBy('memes.id', 'desc')
    .limit(candidates)
    .execute();
  return rows
    .map((r) => ({ id: r.id, rank: hotRank(r.upvotes, r.downvotes, opts.now - r.created_at) }))
    .sort((a, b) => b.rank - a.rank || b.id - a.id)
    .slice(0, opts.max)
    .map((r) => r.id);
}

/** The newest snapshot of a list made at or after `notBefore`. */
export async function recentListSnapshot(
  db: Kysely<Database>,
  listKey: string,
  notBefore: number,
): Promise<{ id: number; memeIds: number[] } | undefined> {
  const row = await db
    .selectFrom('meme_list_snapshots')
    .select(['id', 'meme_ids'])
    .where('list_key', '=', listKey)
    .where('created_at', '>=', notBefore)
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
  return row && { id: row.id, memeIds: JSON.parse(row.meme_ids) as number[] };
}

/** A snapshot by id, if it belongs to this list and is not older than `notBefore`. */
export async function listSnapshot(
  db: Kysely<Database>,
  id: number,
  listKey: string,
  notBefore: number,
): Promise<number[] | undefined> {
  const row = await db
    .selectFrom('meme_list_snapshots')
    .select('meme_ids')
    .where('id', '=', id)
    .where('list_key', '=', listKey)
    .where('created_at', '>=', notBefore)
    .executeTakeFirst();
  return row && (JSON.parse(row.meme_ids) as number[]);
}

/** Stores a list's order; snapshots older than `expireBefore` go in the same step. */
export async function insertListSnapshot(
  db: Kysely<Database>,
  snapshot: { listKey: string; memeIds: number[]; now: number; expireBefore: number },
): Promise<number> {
  return db.transaction().execute(async (trx) => {
    await trx
      .deleteFrom('meme_list_snapshots')
      .where('created_at', '<', snapshot.expireBefore)
      .execute();
    const row = await trx
      .insertInto('meme_list_snapshots')
      .values({
        list_key: snapshot.listKey,
        meme_ids: JSON.stringify(snapshot.memeIds),
        created_at: snapshot.now,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    return row.id;
  });
}

/** Where a picture stands, for the repost check (uploads/duplicates.ts). */
export type PictureState = 'shown' | 'under-review' | 'removed';

/**
 * Every known picture's perceptual hash (memes from before hashes have none): each meme's, as
 * shown, hidden by reports while they wait for the operator (open reports), or hidden by the
 * operator; and each meme the operator deleted (its decision keeps the hash).
 */
export async function pictureHashes(
  db: Kysely<Database>,
): Promise<{ memeId: number; phash: string; state: PictureState; ownerId: number | null }[]> {
  const memes = await db
    .selectFrom('memes')
    .select((eb) => [
      'memes.id',
      'memes.phash',
      'memes.hidden',
      'memes.held',
      'memes.user_id',
      eb
        .exists(
          eb
            .selectFrom('meme_reports')
            .select('meme_reports.meme_id')
            .whereRef('meme_reports.meme_id', '=', 'memes.id')
            .where('meme_reports.decision_id', 'is', null),
        )
        .as('open_reports'),
    ])
    .where('memes.phash', 'is not', null)
    .execute();
  const deleted = await db
    .selectFrom('meme_decisions')
    .select(['meme_id', 'phash'])
    .where('decision', '=', 'delete')
    .where('phash', 'is not', null)
    .execute();
  return [
    ...memes.map((m) => ({
      memeId: m.id,
      phash: m.phash!,
      // PostgreSQL answers EXISTS with a boolean, SQLite with 0 or 1.
      state: (m.hidden === 0
        ? 'shown'
        : // Held by the classifier, or hidden by reports: a moderator has yet to decide.
          m.held === 1 || Number(m.open_reports) === 1 || m.open_reports === true
          ? 'under-review'
          : 'removed') as PictureState,
      ownerId: m.user_id,
    })),
    ...deleted.map((d) => ({
      memeId: d.meme_id,
      phash: d.phash!,
      state: 'removed' as const,
      ownerId: null,
    })),
  ];
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
    phash?: string | null;
    imageWidth?: number | null;
    imageHeight?: number | null;
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
      phash: meme.phash ?? null,
      image_width: meme.imageWidth ?? null,
      image_height: meme.imageHeight ?? null,
      created_at: meme.now,
    })
    .returning(memeFields)
    .executeTakeFirstOrThrow();
  await recordActivity(db, 'meme', meme.now);
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
 * rows in meme_votes, and a network's visitor votes never pass the cap (vote-rules.ts).
 * `network` is a visitor's (memes/voter.ts), null or absent for a member. 'not-found' when the
 * meme does not exist or is hidden; 'network-full' when a visitor's new vote finds no room.
 */
export async function castVote(
  db: Kysely<Database>,
  vote: {
    memeId: number;
    voter: string;
    voteType: VoteType;
    now: number;
    network?: string | null;
  },
): Promise<VoteResult | 'not-found' | 'network-full'> {
  const lock = isPostgres(db);
  const network = vote.network ?? null;
  return db.transaction().execute(async (trx) => {
    let locked = trx
      .selectFrom('memes')
      .select(['upvotes', 'downvotes'])
      .where('id', '=', vote.memeId)
      .where('hidden', '=', 0);
    if (lock) locked = locked.forUpdate();
    const meme = await locked.executeTakeFirst();
    if (!meme) return 'not-found';
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
    if (network !== null && current === null) {
      const { n } = await trx
        .selectFrom('meme_votes')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('meme_id', '=', vote.memeId)
        .where('network', '=', network)
        .executeTakeFirstOrThrow();
      if (!visitorVoteFits(current, Number(n))) return 'network-full';
    }
    const change = voteTransition(current, vote.voteType);
    // A vote cast or switched is a vote made today; taking one back is not a vote.
    if (change.next !== null) await recordActivity(trx, 'vote', vote.now);
    if (current === null) {
      await trx
        .insertInto('meme_votes')
        .values({
          meme_id: vote.memeId,
          voter: vote.voter,
          vote_type: vote.voteType,
          created_at: vote.now,
          network,
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
 * Removes a member's memes (their votes go with them) and processed uploads, inside the
 * caller's transaction; answers the image keys they named, for the caller to delete from the
 * store once no other row names them.
 */
export async function deleteMemesOfUser(
  trx: Transaction<Database>,
  userId: number,
): Promise<string[]> {
  const memes = await trx
    .deleteFrom('memes')
    .where('user_id', '=', userId)
    .returning(['image_key', 'thumbnail_key'])
    .execute();
  const images = await trx
    .deleteFrom('meme_images')
    .where('user_id', '=', userId)
    .returning(['image_key', 'thumbnail_key'])
    .execute();
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

/** Memes with more visitor votes from one network than the cap allows; empty when none. */
export async function findNetworkCapOverruns(db: Kysely<Database>) {
  const rows = await db
    .selectFrom('meme_votes')
    .select((eb) => ['meme_id', eb.fn.countAll<number>().as('n')])
    .where('network', 'is not', null)
    .groupBy(['meme_id', 'network'])
    .having((eb) => eb.fn.countAll(), '>', VISITOR_VOTES_PER_NETWORK)
    .execute();
  return rows.map((r) => ({ memeId: r.meme_id, votes: Number(r.n) }));
}
