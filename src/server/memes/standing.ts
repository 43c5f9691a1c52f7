import { sql, type Kysely, type Transaction } from 'kysely';
import {
  allowanceOf,
  MEMBER_AGE_MS,
  standingOf,
  type Allowance,
  type Standing,
  type StandingFacts,
} from '#shared/standing.ts';
import type { Database } from '../db/database.ts';
import { finishedRunCounts } from '../game/repository.ts';
import { findWallets } from '../wallet/repository.ts';
import { userIdsByName } from '../accounts/repository.ts';

type Db = Kysely<Database> | Transaction<Database>;

/**
 * The facts a standing is computed from (src/shared/standing.ts), for several members in five
 * reads whatever their number: the account's age, finished runs, memes still up, reports upheld
 * against their memes (a moderator hid or deleted a reported meme), a proven wallet.
 */
async function standingFacts(
  db: Db,
  userIds: readonly number[],
): Promise<Map<number, StandingFacts>> {
  const ids = [...new Set(userIds)];
  if (ids.length === 0) return new Map();
  const [users, runs, memes, upheld, wallets] = await Promise.all([
    db.selectFrom('users').select(['id', 'created_at']).where('id', 'in', ids).execute(),
    finishedRunCounts(db, ids),
    db
      .selectFrom('memes')
      .select((eb) => ['user_id', eb.fn.countAll<number | string>().as('n')])
      .where('user_id', 'in', ids)
      .where('hidden', '=', 0)
      .groupBy('user_id')
      .execute(),
    db
      .selectFrom('meme_decisions')
      .select((eb) => ['uploader_id', eb.fn.countAll<number | string>().as('n')])
      .where('uploader_id', 'in', ids)
      .where('decision', 'in', ['hide', 'delete'])
      .where('open_reports', '>', 0)
      .groupBy('uploader_id')
      .execute(),
    findWallets(db, ids),
  ]);
  const memesUp = new Map(memes.map((r) => [r.user_id!, Number(r.n)]));
  const upheldBy = new Map(upheld.map((r) => [r.uploader_id!, Number(r.n)]));
  const walletOwners = new Set(wallets.map((w) => w.user_id));
  return new Map(
    users.map((u) => [
      u.id,
      {
        createdAt: u.created_at,
        finishedRuns: runs.get(u.id) ?? 0,
        memesUp: memesUp.get(u.id) ?? 0,
        upheldReports: upheldBy.get(u.id) ?? 0,
        provenWallet: walletOwners.has(u.id),
      },
    ]),
  );
}

/** Each member's standing at `now`; a member not found is left out. */
export async function standingsOf(
  db: Db,
  userIds: readonly number[],
  now: number,
): Promise<Map<number, Standing>> {
  const facts = await standingFacts(db, userIds);
  return new Map([...facts].map(([id, f]) => [id, standingOf(f, now)]));
}

/** One member's standing and what it allows; a member not found counts as new. */
export async function memberStanding(
  db: Db,
  userId: number,
  now: number,
): Promise<{ standing: Standing; allowance: Allowance }> {
  const standing = (await standingsOf(db, [userId], now)).get(userId) ?? {
    level: 'new' as const,
    provenWallet: false,
  };
  return { standing, allowance: allowanceOf(standing) };
}

/** Each name's standing (members on a console page); names with no account are left out. */
export async function standingsByName(
  db: Db,
  names: readonly (string | null)[],
  now: number,
): Promise<Record<string, Standing>> {
  const ids = await userIdsByName(db, [...new Set(names.filter((n): n is string => n !== null))]);
  const standings = await standingsOf(db, [...ids.values()], now);
  const out: Record<string, Standing> = {};
  for (const [name, id] of ids) {
    const standing = standings.get(id);
    if (standing) out[name] = standing;
  }
  return out;
}

/**
 * What the raid trigger counts in the gallery since `since`: memes posted by accounts under a
 * day old (a new account's standing in its first day, without the facts' reads per meme), and
 * reports filed.
 */
export async function galleryActivitySince(
  db: Db,
  since: number,
): Promise<{ newPosts: number; reports: number }> {
  const [posts, reports] = await Promise.all([
    db
      .selectFrom('memes')
      .innerJoin('users', 'users.id', 'memes.user_id')
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .where('memes.created_at', '>=', since)
      .whereRef('users.created_at', '>', sql<number>`memes.created_at - ${MEMBER_AGE_MS}`)
      .executeTakeFirstOrThrow(),
    db
      .selectFrom('meme_reports')
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .where('created_at', '>=', since)
      .executeTakeFirstOrThrow(),
  ]);
  return { newPosts: Number(posts.n), reports: Number(reports.n) };
}
