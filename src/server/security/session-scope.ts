import fastifyCookie from '@fastify/cookie';
import type { FastifyInstance, onRequestHookHandler, RouteOptions } from 'fastify';
import { unauthorized } from '../http-error.ts';
import { assertCsrf } from './csrf.ts';
import { assertSameOrigin } from './origin-check.ts';
import { cachedSession, cookieName, hashSessionId, SESSION_COOKIE } from './sessions.ts';

/**
 * Gives the routes of `scope` (a plugin context and its children) the request's cookies, its
 * member (`request.user`) and the guards on writes: a request another site sent is refused,
 * and a mutating call needs its CSRF token. Routes outside such a scope never parse a cookie or
 * look up a session: see `allowReadsOnly`.
 */
export async function enableSessions(scope: FastifyInstance): Promise<void> {
  await scope.register(fastifyCookie);
  // A cross-site HTML form can send text/plain without a preflight; no route here takes text,
  // so such a request is refused (415) before any route runs, whatever its body.
  scope.removeContentTypeParser('text/plain');
  // Callback-style: most requests carry no session, and an async hook costs each a promise.
  scope.addHook('onRequest', (request, _reply, done) => {
    assertSameOrigin(request);
    const sessionId = request.cookies[cookieName(request, SESSION_COOKIE)];
    if (!sessionId) return done();
    const idHash = hashSessionId(sessionId);
    request.sessionIdHash = idHash;
    // Most member requests find their session kept (decision 011) and go on without a promise.
    const kept = scope.deps.sessions.fresh(idHash);
    if (kept) {
      request.user = kept.user;
      return done();
    }
    cachedSession(scope.deps, idHash).then((session) => {
      request.user = session.user;
      done();
    }, done);
  });
  // After parsing, so a CSRF failure is reported only for a request the route would accept.
  scope.addHook('preValidation', (request, _reply, done) => {
    assertCsrf(request);
    done();
  });
}

/**
 * For the scope of reads that are the same for everybody (the leaderboard, images, the clock):
 * they skip the session scope's cookie parsing and session look-up, so nothing there may
 * change anything. A write route added to it stops start-up, since it would have no origin or
 * CSRF check.
 */
export function allowReadsOnly(scope: FastifyInstance): void {
  scope.addHook('onRoute', refuseWriteRoute);
}

function refuseWriteRoute(route: RouteOptions): void {
  const methods = [route.method].flat();
  if (methods.some((method) => method !== 'GET' && method !== 'HEAD')) {
    throw new Error(
      `${methods.join(',')} ${route.url}: writes belong in a session scope (enableSessions)`,
    );
  }
}

/**
 * A member endpoint's guard, its route's first `onRequest` hook after the scope's session
 * look-up (endpointRoute installs it for `access: 'member'`): a visitor gets 401 with `message`
 * before the body or parameters are parsed or validated.
 */
export function membersOnly(message: string): onRequestHookHandler {
  return (request, _reply, done) => done(request.user ? undefined : unauthorized(message));
}
