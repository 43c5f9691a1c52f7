import type { Kysely } from 'kysely';
import type { MemberDetail } from '#shared/api/console/members.ts';
import { findUserByUsername } from '../accounts/repository.ts';
import type { Database } from '../db/database.ts';
import { notFound } from '../http-error.ts';
import { listDecisions } from '../db/operator-log.ts';
import { memeRowsOfMember } from '../memes/member-memes.ts';
import { isActive } from '../suspensions/suspensions.ts';
import { findWallet } from '../wallet/repository.ts';

/** Members whose name starts with `q` (ignoring case), at most 20. */
export async function findMembers(db: Kysely<Database>, q: string) {
  // `_` and `%` in a name are LIKE's wildcards: they only widen the match, which the filter
  // after narrows (no escape character works the same on both engines).
  const prefix = q.toLowerCase();
  const rows = await db
    .selectFrom('users')
    .select(['id', 'username', 'role'])
    .where('username_lower', 'like', `${prefix}%`)
    .orderBy('username_lower')
    .limit(200)
    .execute();
  return rows.filter((r) => r.username.toLowerCase().startsWith(prefix)).slice(0, 20);
}

/** The member of that name as the console's actions need them; 404 when there is none. */
export async function memberByName(db: Kysely<Database>, username: string) {
  const user = await findUserByUsername(db, username);
  if (!user) throw notFound(`No member named "${username}".`);
  return user;
}

export async function memberDetail(
  db: Kysely<Database>,
  username: string,
  now: number,
): Promise<MemberDetail> {
  const user = await memberByName(db, username);
  const [wallet, sessions, memes, runs, reports, suspensions, decisions] = await Promise.all([
    findWallet(db, user.id),
    db
      .selectFrom('sessions')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('user_id', '=', user.id)
      .where('expires_at', '>', now)
      .executeTakeFirstOrThrow(),
    memeRowsOfMember(db, user.id, { limit: 50, hidden: true }),
    db
      .selectFrom('game_scores')
      .innerJoin('game_runs', 'game_runs.id', 'game_scores.run_id')
      .select(['game_scores.score', 'game_runs.coins', 'game_scores.created_at'])
      .where('game_scores.user_id', '=', user.id)
      .orderBy('game_scores.id', 'desc')
      .limit(20)
      .execute(),
    db
      .selectFrom('meme_reports')
      .innerJoin('memes', 'memes.id', 'meme_reports.meme_id')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('memes.user_id', '=', user.id)
      .executeTakeFirstOrThrow(),
    db
      .selectFrom('suspensions')
      .selectAll()
      .where('user_id', '=', user.id)
      .orderBy('id', 'desc')
      .execute(),
    listDecisions(db, { targetType: 'member', targetId: String(user.id), limit: 50 }),
  ]);
  return {
    member: {
      id: user.id,
      username: user.username,
      role: user.role,
      coins: user.coins,
      createdAt: user.created_at,
      wallet: wallet?.address ?? null,
      sessions: Number(sessions.n),
    },
    memes: memes.map((m) => ({
      id: m.id,
      title: m.title,
      hidden: m.hidden === 1,
      upvotes: m.upvotes,
      downvotes: m.downvotes,
      createdAt: m.created_at,
    })),
    runs: runs.map((r) => ({ score: r.score, coins: r.coins, at: r.created_at })),
    reportsAgainst: Number(reports.n),
    suspensions: suspensions.map((s) => ({
      id: s.id,
      reason: s.reason,
      startsAt: s.starts_at,
      endsAt: s.ends_at,
      liftedAt: s.lifted_at,
      active: isActive(s, now),
    })),
    decisions,
  };
}
