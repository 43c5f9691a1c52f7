import type { Kysely, Transaction } from 'kysely';
import { DAY_MS } from '#shared/time.ts';
import { allowanceOf, STANDING_LABELS } from '#shared/standing.ts';
import { memberSince } from '../accounts/repository.ts';
import type { Database } from '../db/database.ts';
import { HttpError } from '../http-error.ts';
import { standingsOf } from './standing.ts';

/**
 * Upload slots (after Danbooru's), by standing (src/shared/standing.ts, decision 027): a member
 * posts at most their level's memes in any 24 hours, 3 for a new account. A throwaway account
 * made to flood the gallery, or to report-bomb it with reposts, gets three images a day until it
 * has a day behind it and something kept here.
 */
export const NEW_ACCOUNT_PERIOD_MS = DAY_MS;
export const NEW_ACCOUNT_MEMES = allowanceOf({ level: 'new', provenWallet: false }).uploadsPerDay;

function utcMinute(ms: number): string {
  return `${new Date(ms).toISOString().replace('T', ' ').slice(0, 16)} UTC`;
}

/**
 * Refuses (429, with Retry-After and the time in words) a member who has posted their standing's
 * memes in the last 24 hours. Inside the post's transaction: on PostgreSQL the member's row is
 * locked first, so two posts at once cannot both take the last slot; SQLite runs one write
 * transaction at a time. Hidden memes count; a deleted one gives its slot back. `checkOnly`
 * (before an image is processed) reads without locking, to spare the decode for an upload that
 * could not be posted.
 */
export async function claimUploadSlot(
  db: Kysely<Database> | Transaction<Database>,
  userId: number,
  now: number,
  checkOnly = false,
): Promise<void> {
  if ((await memberSince(db, userId, { lock: !checkOnly })) === undefined) return;
  const standing = (await standingsOf(db, [userId], now)).get(userId)!;
  const allowed = allowanceOf(standing).uploadsPerDay;
  const recent = await db
    .selectFrom('memes')
    .select('created_at')
    .where('user_id', '=', userId)
    .where('created_at', '>', now - DAY_MS)
    .orderBy('created_at', 'desc')
    .limit(allowed)
    .execute();
  if (recent.length < allowed) return;
  // The slot of the oldest of the last `allowed` memes comes back a day after it was posted.
  const moreFrom = recent[recent.length - 1]!.created_at + DAY_MS;
  const who =
    standing.level === 'new' ? 'New accounts' : `Members of standing ${STANDING_LABELS[standing.level]}`;
  throw new HttpError(
    429,
    `${who} can post ${allowed} memes a day. You can post more from ${utcMinute(moreFrom)}.`,
    'UPLOAD_SLOTS_USED',
    { 'retry-after': String(Math.max(1, Math.ceil((moreFrom - now) / 1000))) },
  );
}
