import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { HttpError } from '../http-error.ts';
import { CSRF_EXEMPT_PATHS, objectPaths } from '#shared/api/paths.ts';
import { cookieName, isSecureRequest } from './sessions.ts';

export const CSRF_COOKIE = 'csrf';
const CSRF_COOKIE_MAX_AGE_S = 365 * 24 * 60 * 60;

/**
 * Mutating routes that take no token, named by the route they are registered as (method and
 * pattern), never by the request's URL: the router decodes and normalises the URL before it
 * matches (`/%61pi/auth/logout` is `/api/auth/logout` to it), so a check on the raw text would
 * see a different path from the one that runs.
 * - login, register and game scores: the spec's client sends no token; the origin check still
 *   guards them.
 * - the local store's upload URL (`PUT /api/uploads/<signed token>`): the spec's client PUTs the
 *   file there with plain fetch, as it would to a presigned S3 URL. The URL's signature is the
 *   credential: one key, one member's upload row, expiring.
 */
const EXEMPT_ROUTES = new Set([
  ...CSRF_EXEMPT_PATHS.map((path) => `POST ${path}`),
  `PUT ${objectPaths.localUploadPrefix}*`,
]);

/**
 * The token is bound to the csrf cookie (a random id per browser, the visitor's id for this
 * purpose) and to the session it was issued under: a token read before login is no good after
 * it, nor one from another member's session, and login, register and logout renew the cookie.
 */
function tokenFor(request: FastifyRequest, cookieValue: string): string {
  const session = request.user && request.sessionIdHash ? request.sessionIdHash : 'visitor';
  return createHmac('sha256', request.server.deps.secret)
    .update(`csrf:${cookieValue}:${session}`)
    .digest('base64url');
}

function setCsrfCookie(request: FastifyRequest, reply: FastifyReply, value: string): void {
  reply.setCookie(cookieName(request, CSRF_COOKIE), value, {
    httpOnly: true,
    sameSite: 'lax',
    secure: isSecureRequest(request),
    path: '/',
    maxAge: CSRF_COOKIE_MAX_AGE_S,
  });
}

/** A fresh csrf cookie (at login, register and logout), so no token from before still works. */
export function renewCsrfCookie(request: FastifyRequest, reply: FastifyReply): void {
  const value = randomBytes(32).toString('base64url');
  request.cookies[cookieName(request, CSRF_COOKIE)] = value;
  setCsrfCookie(request, reply, value);
}

/**
 * Signed double-submit: the token is an HMAC of a random httpOnly cookie and the session, so it
 * needs no database row (a visitor costs nothing) and any node holding the shared secret can
 * check it.
 */
export function issueCsrfToken(request: FastifyRequest, reply: FastifyReply): string {
  let cookieValue = request.cookies[cookieName(request, CSRF_COOKIE)];
  if (!cookieValue || cookieValue.length < 32) {
    cookieValue = randomBytes(32).toString('base64url');
    setCsrfCookie(request, reply, cookieValue);
  }
  return tokenFor(request, cookieValue);
}

export function isMutating(method: string): boolean {
  return method === 'POST' || method === 'PUT' || method === 'PATCH' || method === 'DELETE';
}

/** Runs inside a session scope, after routing: every mutating route there needs the token. */
export function assertCsrf(request: FastifyRequest): void {
  if (!isMutating(request.method)) return;
  if (request.routeOptions.config.endpoint?.csrfExempt) return;
  if (EXEMPT_ROUTES.has(`${request.method} ${request.routeOptions.url ?? ''}`)) return;
  const cookieValue = request.cookies[cookieName(request, CSRF_COOKIE)];
  const header = request.headers['x-csrf-token'];
  if (!cookieValue || typeof header !== 'string' || header === '') {
    throw new HttpError(403, 'CSRF token missing', 'CSRF');
  }
  const expected = Buffer.from(tokenFor(request, cookieValue));
  const given = Buffer.from(header);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) {
    throw new HttpError(403, 'CSRF token invalid', 'CSRF');
  }
}
