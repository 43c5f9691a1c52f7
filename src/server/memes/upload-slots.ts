import type { Kysely, Transaction } from 'kysely';
import { memberSince } from '../accounts/repository.ts';
import type { Database } from '../db/database.ts';
import { HttpError } from '../http-error.ts';

/**
 * Upload slots (after Danbooru's): an account's first day may post at most three memes; from
 * the day's end it posts as everyone does (the hourly per-member limit in limits.ts still
 * applies). A throwaway account made to flood the gallery, or to report-bomb it with reposts,
 * gets three images before anyone has had a day to look.
 */
export const NEW_ACCOUNT_PERIOD_MS = 24 * 3_600_000;
export const NEW_ACCOUNT_MEMES = 3;

function utcMinute(ms: number): string {
  return `${new Date(ms).toISOString().replace('T', ' ').slice(0, 16)} UTC`;
}

/**
 * Refuses (429, with Retry-After and the time in words) a new account that has used its
 * slots. Inside the post's transaction: on PostgreSQL the member's row is locked first, so two
 * posts at once cannot both take the last slot; SQLite runs one write transaction at a time.
 * Hidden memes count; a deleted one gives its slot back. `checkOnly` (before an image is
 * processed) reads without locking, to spare the decode for an upload that could not be posted.
 */
export async function claimUploadSlot(
  db: Kysely<Database> | Transaction<Database>,
  userId: number,
  now: number,
  checkOnly = false,
): Promise<void> {
  const since = await memberSince(db, userId, { lock: !checkOnly });
  if (since === undefined) return;
  const moreFrom = since + NEW_ACCOUNT_PERIOD_MS;
  if (now >= moreFrom) return;
  const { n } = await db
    .selectFrom('memes')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('user_id', '=', userId)
    .executeTakeFirstOrThrow();
  if (Number(n) < NEW_ACCOUNT_MEMES) return;
  throw new HttpError(
    429,
    `New accounts can post ${NEW_ACCOUNT_MEMES} memes on their first day. You can post more from ${utcMinute(moreFrom)}.`,
    'UPLOAD_SLOTS_USED',
    { 'retry-after': String(Math.ceil((moreFrom - now) / 1000)) },
  );
}
