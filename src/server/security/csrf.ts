import { createHmac, timingSafeEqual } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { HttpError } from '../http-error.ts';
import { cookieName, isSecureRequest } from './sessions.ts';
import { randomToken } from './random-token.ts';

const CSRF_COOKIE = 'csrf';
const CSRF_COOKIE_MAX_AGE_S = 365 * 24 * 60 * 60;

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
  const value = randomToken(32);
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
    cookieValue = randomToken(32);
    setCsrfCookie(request, reply, cookieValue);
  }
  return tokenFor(request, cookieValue);
}

export function isMutating(method: string): boolean {
  return method === 'POST' || method === 'PUT' || method === 'PATCH' || method === 'DELETE';
}

/**
 * Runs inside a session scope, after routing: every mutating route there needs the token, but
 * for an endpoint declared `csrfExempt` (src/shared/api: login, register and game scores, which
 * the spec's client sends without one, and the local store's signed upload address). Read from
 * the route the router matched, never from the request's URL: the router decodes and normalises
 * the URL first (`/%61pi/auth/logout` is `/api/auth/logout` to it). The origin check still
 * guards an exempt write.
 */
export function assertCsrf(request: FastifyRequest): void {
  if (!isMutating(request.method)) return;
  if (request.routeOptions.config.endpoint?.csrfExempt) return;
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
