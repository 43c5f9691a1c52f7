import { sql, type Kysely, type Transaction } from 'kysely';
import { MEMBER_AGE_MS } from '#shared/standing.ts';
import type { QueueEntry } from '#shared/api/console/queue.ts';
import type { AppDeps, SessionUser } from '../deps.ts';
import type { Database } from '../db/database.ts';
import { enqueueAlert } from '../alerts/outbox.ts';
import { objectPathForKey } from './object-paths.ts';
import { memeFields } from './repository.ts';
import { NOT_SCORED } from './screen-score.ts';

type Db = Kysely<Database> | Transaction<Database>;

/**
 * Memes the image classifier held (docs/decisions/027-raid-day.md): hidden from everybody but
 * their owner and the moderators until a moderator decides (memes/moderation.ts `decide` clears
 * the hold), never dropped; the moderators are alerted in the post's transaction.
 */
export async function holdForReview(
  trx: Transaction<Database>,
  deps: Pick<AppDeps, 'config'>,
  meme: { id: number; title: string; user: SessionUser; score: number },
  now: number,
): Promise<void> {
  await trx
    .updateTable('memes')
    .set({ hidden: 1, held: 1, held_by: 'classifier', screen_score: meme.score })
    .where('id', '=', meme.id)
    .execute();
  const scored =
    meme.score === NOT_SCORED ? 'could not be scored in time' : `scored ${meme.score.toFixed(2)}`;
  await enqueueAlert(
    trx,
    deps.config.alerts,
    {
      kind: 'meme-held',
      subject: `Meme #${meme.id} held for review`,
      body: `"${meme.title}" by ${meme.user.username}: its image ${scored} on the classifier. It waits in the console's queue, blurred.`,
    },
    now,
  );
}

export async function recordScreenScore(db: Db, memeId: number, score: number): Promise<void> {
  await db.updateTable('memes').set({ screen_score: score }).where('id', '=', memeId).execute();
}

/** A held meme of this owner, as the gallery shows it; undefined for anyone else's. */
export async function ownHeldMeme(db: Db, memeId: number, ownerId: number) {
  return db
    .selectFrom('memes')
    .where('id', '=', memeId)
    .where('user_id', '=', ownerId)
    .where('held', '=', 1)
    .select(memeFields)
    .executeTakeFirst();
}

/** The queue's held memes, oldest first, as queue entries with no reports (yet). */
export async function heldQueue(db: Db, limit: number): Promise<QueueEntry[]> {
  const rows = await db
    .selectFrom('memes')
    .leftJoin('users', 'users.id', 'memes.user_id')
    .select([
      'memes.id',
      'memes.title',
      'memes.image_key',
      'memes.thumbnail_key',
      'memes.screen_score',
      'memes.held_by',
      'memes.created_at',
      'users.username',
    ])
    .where('memes.held', '=', 1)
    .orderBy('memes.id')
    .limit(limit)
    .execute();
  return rows.map((row) => ({
    meme: {
      id: row.id,
      title: row.title,
      imageUrl: objectPathForKey(row.image_key),
      thumbnailUrl: objectPathForKey(row.thumbnail_key),
      hidden: true,
      deleted: false,
      uploader: row.username,
      held: true,
      ...(row.held_by && { heldBy: row.held_by }),
      screenScore: row.screen_score,
    },
    reports: 0,
    reasons: {},
    firstReportAt: row.created_at,
    lastReportAt: row.created_at,
    decision: null,
  }));
}

/**
 * Raid mode's entry (docs/decisions/027): memes posted since `since` by accounts then under a
 * day old are held for review, as the classifier holds one: the raid's first wave, posted before
 * the thresholds were reached, leaves the gallery until a moderator looks. Answers their ids.
 */
export async function holdNewAccountMemesSince(
  trx: Transaction<Database>,
  since: number,
): Promise<number[]> {
  const rows = await trx
    .selectFrom('memes')
    .innerJoin('users', 'users.id', 'memes.user_id')
    .select('memes.id')
    .where('memes.created_at', '>=', since)
    .where('memes.hidden', '=', 0)
    .whereRef('users.created_at', '>', sql<number>`memes.created_at - ${MEMBER_AGE_MS}`)
    .execute();
  const ids = rows.map((r) => r.id);
  for (let i = 0; i < ids.length; i += 500) {
    await trx
      .updateTable('memes')
      .set({ hidden: 1, held: 1, held_by: 'raid' })
      .where('id', 'in', ids.slice(i, i + 500))
      .execute();
  }
  return ids;
}
