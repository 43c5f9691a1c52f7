import { hash } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../db/database.ts';
import type { AppDeps, CachedSession } from '../deps.ts';
import { randomToken } from './random-token.ts';

export const SESSION_COOKIE = 'sid';
const SESSION_IDLE_MS = 14 * 24 * 60 * 60 * 1000;
const SESSION_ABSOLUTE_MS = 30 * 24 * 60 * 60 * 1000;
/** last_seen_at is written at most this often, so reads stay reads. */
const TOUCH_INTERVAL_MS = 60 * 1000;

export function hashSessionId(id: string): string {
  return hash('sha256', id, 'base64url');
}

export function isSecureRequest(request: FastifyRequest): boolean {
  const origin = request.server.deps.config.publicOrigin;
  return origin ? origin.startsWith('https:') : request.protocol === 'https';
}

/**
 * A cookie's name as this request sends and reads it: `__Host-` prefixed whenever cookies are
 * Secure, so the browser takes it only over https, for this host alone and the whole path (a
 * sibling subdomain or a plain-http page cannot plant one). Plain http (localhost) keeps the
 * bare name, which browsers would refuse with the prefix.
 */
export function cookieName(request: FastifyRequest, base: string): string {
  return isSecureRequest(request) ? `__Host-${base}` : base;
}

async function loadSession(
  db: Kysely<Database>,
  idHash: string,
  now: number,
): Promise<CachedSession> {
  const row = await db
    .selectFrom('sessions')
    .innerJoin('users', 'users.id', 'sessions.user_id')
    .select((eb) => [
      'users.id',
      'users.username',
      'users.role',
      'sessions.last_seen_at',
      eb
        .exists(
          eb
            .selectFrom('appeals')
            .select('appeals.id')
            .whereRef('appeals.user_id', '=', 'users.id')
            .where('appeals.decided_at', 'is not', null)
            .where('appeals.told_at', 'is', null),
        )
        .as('appeal_decision_untold'),
    ])
    .where('sessions.id_hash', '=', idHash)
    .where('sessions.expires_at', '>', now)
    .where('sessions.last_seen_at', '>', now - SESSION_IDLE_MS)
    .executeTakeFirst();
  if (!row) return { user: null, role: 'member', appealDecisionUntold: false };
  if (now - row.last_seen_at > TOUCH_INTERVAL_MS) {
    await db
      .updateTable('sessions')
      .set({ last_seen_at: now })
      .where('id_hash', '=', idHash)
      .execute();
  }
  return {
    user: { id: row.id, username: row.username },
    role: row.role,
    // SQLite answers EXISTS as 0 or 1, PostgreSQL as a boolean.
    appealDecisionUntold: Boolean(row.appeal_decision_untold),
  };
}

/**
 * The session look-up every member request makes, under the read-cache rule (decision 011): a
 * node keeps the answer for a second, then serves it while one look-up replaces it, never once
 * it is 2 s old; its own logins and logouts drop it at once. A session ended on another node (or
 * by the operator) stops working here within 2 s.
 */
export function cachedSession(
  deps: Pick<AppDeps, 'db' | 'clock' | 'sessions'>,
  idHash: string,
): Promise<CachedSession> {
  return deps.sessions.get(idHash, () => loadSession(deps.db, idHash, deps.clock.now()));
}

/** Ends the caller's current session (if any) and starts a new one: a fresh id on every sign-in. */
export async function startSession(
  request: FastifyRequest,
  reply: FastifyReply,
  userId: number,
): Promise<void> {
  const { db, clock, sessions } = request.server.deps;
  const now = clock.now();
  if (request.sessionIdHash) {
    await db.deleteFrom('sessions').where('id_hash', '=', request.sessionIdHash).execute();
    sessions.delete(request.sessionIdHash);
  }
  const id = randomToken(32);
  const idHash = hashSessionId(id);
  await db
    .insertInto('sessions')
    .values({
      id_hash: idHash,
      user_id: userId,
      created_at: now,
      last_seen_at: now,
      expires_at: now + SESSION_ABSOLUTE_MS,
    })
    .execute();
  request.sessionIdHash = idHash;
  reply.setCookie(cookieName(request, SESSION_COOKIE), id, {
    httpOnly: true,
    sameSite: 'lax',
    secure: isSecureRequest(request),
    path: '/',
    maxAge: SESSION_ABSOLUTE_MS / 1000,
  });
}

export async function endSession(request: FastifyRequest, reply: FastifyReply): Promise<void> {
  if (request.sessionIdHash) {
    const { db, sessions } = request.server.deps;
    await db.deleteFrom('sessions').where('id_hash', '=', request.sessionIdHash).execute();
    sessions.delete(request.sessionIdHash);
  }
  request.sessionIdHash = null;
  request.user = null;
  reply.clearCookie(cookieName(request, SESSION_COOKIE), {
    path: '/',
    httpOnly: true,
    sameSite: 'lax',
    secure: isSecureRequest(request),
  });
}

/**
 * Ends every session of the member but `keep` (the caller's own, when they change their own
 * passkeys; null for all): a session that may have been stolen does not outlive a change to the
 * console's doors. The console reads the session row on every request, so it refuses them at
 * once on every node; other pages within the session cache's 2 s. Gives the ended sessions' ids.
 */
export async function endSessionsOf(
  db: Kysely<Database> | Transaction<Database>,
  userId: number,
  keep: string | null,
): Promise<string[]> {
  let query = db.deleteFrom('sessions').where('user_id', '=', userId);
  if (keep !== null) query = query.where('id_hash', '!=', keep);
  return (await query.returning('id_hash').execute()).map((r) => r.id_hash);
}

export async function pruneSessions(db: Kysely<Database>, now: number): Promise<void> {
  await db
    .deleteFrom('sessions')
    .where((eb) =>
      eb.or([eb('expires_at', '<=', now), eb('last_seen_at', '<=', now - SESSION_IDLE_MS)]),
    )
    .execute();
}
