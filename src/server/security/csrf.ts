import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { HttpError } from '../http-error.ts';
import { CSRF_EXEMPT_PATHS, objectPaths } from '#shared/api/paths.ts';
import { isSecureRequest } from './sessions.ts';

export const CSRF_COOKIE = 'csrf';
const CSRF_COOKIE_MAX_AGE_S = 365 * 24 * 60 * 60;

/** The spec's client sends no token on these; they are still guarded by the origin check. */
const EXEMPT_PATHS = new Set(CSRF_EXEMPT_PATHS);
/**
 * The local store's upload URLs (`PUT /api/uploads/<signed token>`): the spec's client PUTs
 * the file there with plain fetch, as it would to a presigned S3 URL, so no token comes with
 * it. The URL's signature is the credential: one key, one member's upload row, expiring.
 */
const EXEMPT_PREFIXES = [objectPaths.localUploadPrefix];

function tokenFor(secret: string, cookieValue: string): string {
  return createHmac('sha256', secret).update(`csrf:${cookieValue}`).digest('base64url');
}

/**
 * Signed double-submit: the token is an HMAC of a random httpOnly cookie, so it needs no
 * database row (a visitor costs nothing) and any node holding the shared secret can check it.
 */
export function issueCsrfToken(request: FastifyRequest, reply: FastifyReply): string {
  let cookieValue = request.cookies[CSRF_COOKIE];
  if (!cookieValue || cookieValue.length < 32) {
    cookieValue = randomBytes(32).toString('base64url');
    reply.setCookie(CSRF_COOKIE, cookieValue, {
      httpOnly: true,
      sameSite: 'lax',
      secure: isSecureRequest(request),
      path: '/',
      maxAge: CSRF_COOKIE_MAX_AGE_S,
    });
  }
  return tokenFor(request.server.deps.secret, cookieValue);
}

export function isMutating(method: string): boolean {
  return method === 'POST' || method === 'PUT' || method === 'PATCH' || method === 'DELETE';
}

export function assertCsrf(request: FastifyRequest): void {
  if (!isMutating(request.method)) return;
  const path = request.url.split('?', 1)[0]!;
  if (!path.startsWith('/api/') || EXEMPT_PATHS.has(path)) return;
  if (request.method === 'PUT' && EXEMPT_PREFIXES.some((prefix) => path.startsWith(prefix))) return;
  const cookieValue = request.cookies[CSRF_COOKIE];
  const header = request.headers['x-csrf-token'];
  if (!cookieValue || typeof header !== 'string' || header === '') {
    throw new HttpError(403, 'CSRF token missing', 'CSRF');
  }
  const expected = Buffer.from(tokenFor(request.server.deps.secret, cookieValue));
  const given = Buffer.from(header);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) {
    throw new HttpError(403, 'CSRF token invalid', 'CSRF');
  }
}
