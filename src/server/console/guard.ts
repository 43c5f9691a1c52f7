import type { FastifyRequest, onRequestHookHandler } from 'fastify';
import {
  type OperatorRole,
  PASSKEY_SIGN_IN_MAX_MS,
  PASSKEY_STEP_UP_MS,
  type Role,
} from '#shared/api/console/common.ts';
import { HttpError, unauthorized } from '../http-error.ts';
import { clientNetwork } from '../http/client-network.ts';
import type { ConsoleAccessHooks } from '../http/endpoint-route.ts';
import { enforceRateLimit } from '../security/rate-limit.ts';
import type { Operator } from '../db/operator-log.ts';
import { activeSuspension } from '../suspensions/suspensions.ts';

/** Console requests write the session's passkey time at most this often (the sliding step-up). */
const SLIDE_EVERY_MS = 30 * 1000;

const RANK: Record<Role, number> = { member: 0, moderator: 1, admin: 2 };

/** The console's writes, per network: far above an operator's pace, far below a script's. */
export const CONSOLE_WRITES = { limit: 60, windowMs: 60 * 1000 };

/** The operator a console request acts as, set by operatorOnly. */
export interface ConsoleOperator extends Operator {
  id: number;
  role: OperatorRole;
  passkeyFresh: boolean;
}

declare module 'fastify' {
  interface FastifyRequest {
    operator?: ConsoleOperator;
  }
}

const NOT_OPERATOR = 'The console is for moderators and admins.';

/**
 * Whether a session's passkey sign-in still opens the console at `now`: within
 * PASSKEY_STEP_UP_MS of the last console request that needed it (sliding), and within
 * PASSKEY_SIGN_IN_MAX_MS of the sign-in itself however busy the session has been.
 */
function passkeyFreshAt(
  session: { passkey_at: number | null; passkey_signed_in_at: number | null },
  now: number,
): boolean {
  const { passkey_at: lastUse, passkey_signed_in_at: signedIn } = session;
  return (
    lastUse !== null &&
    signedIn !== null &&
    now - lastUse <= PASSKEY_STEP_UP_MS &&
    now - signedIn <= PASSKEY_SIGN_IN_MAX_MS
  );
}

/**
 * The console's guard, as a route's onRequest hook after the session scope's look-up: a visitor
 * gets 401, a member without `role` (read from the database on every request, so a demotion
 * takes effect on the next request) 403, a suspended operator 403 SUSPENDED (no console at all,
 * not even their own page), and with `passkey` (every console endpoint but those marked
 * `beforePasskey`) a session with no fresh passkey sign-in (passkeyFreshAt) 403
 * PASSKEY_REQUIRED. Only a route that needs the passkey slides the window on: a page that asks
 * who is signed in (`/api/admin/me`) keeps no idle session open. Sets request.operator.
 */
function operatorOnly(role: OperatorRole, options: { passkey: boolean }): onRequestHookHandler {
  const needsPasskey = options.passkey;
  return async (request) => {
    const user = request.user;
    if (!user || !request.sessionIdHash) throw unauthorized('Please sign in first.');
    const { db, clock } = request.server.deps;
    const now = clock.now();
    const row = await db
      .selectFrom('sessions')
      .innerJoin('users', 'users.id', 'sessions.user_id')
      .select([
        'users.id',
        'users.username',
        'users.role',
        'sessions.passkey_at',
        'sessions.passkey_signed_in_at',
      ])
      .where('sessions.id_hash', '=', request.sessionIdHash)
      .executeTakeFirst();
    if (!row) throw unauthorized('Please sign in first.');
    if (row.role === 'member') throw new HttpError(403, NOT_OPERATOR, 'NOT_OPERATOR');
    if (await activeSuspension(db, row.id, now)) {
      throw new HttpError(
        403,
        'Your account is suspended, and the console is closed to a suspended operator.',
        'SUSPENDED',
      );
    }
    if (RANK[row.role] < RANK[role]) {
      throw new HttpError(403, 'Only an admin may do this.', 'ADMIN_ONLY');
    }
    const passkeyFresh = passkeyFreshAt(row, now);
    if (needsPasskey && !passkeyFresh) {
      throw new HttpError(403, 'Sign in with your passkey to use the console.', 'PASSKEY_REQUIRED');
    }
    if (needsPasskey && now - row.passkey_at! >= SLIDE_EVERY_MS) {
      await db
        .updateTable('sessions')
        .set({ passkey_at: now })
        .where('id_hash', '=', request.sessionIdHash)
        .execute();
    }
    request.operator = {
      id: row.id,
      name: row.username,
      address: clientNetwork(request),
      role: row.role,
      passkeyFresh,
    };
  };
}

/** Counts a console write against the caller's network, after the guard, before the body. */
const consoleWriteLimit: onRequestHookHandler = async (request) => {
  await enforceRateLimit(
    request.server.deps.rateLimiter,
    `console:write:net:${clientNetwork(request)}`,
    CONSOLE_WRITES,
    'Too many console actions. Please slow down.',
  );
};

/**
 * What endpointRoute installs on a moderator's or an admin's endpoint (`access`, src/shared/api):
 * app.ts lends it to the console's scope.
 */
export const consoleAccess: ConsoleAccessHooks = {
  guard: operatorOnly,
  writeLimit: consoleWriteLimit,
};

/** The request's operator; only in a route of a console endpoint (operatorOnly set it). */
export function operatorOf(request: FastifyRequest): ConsoleOperator {
  if (!request.operator) throw new Error('operatorOf outside operatorOnly');
  return request.operator;
}
