import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { cookieName, isSecureRequest } from '../security/sessions.ts';

/**
 * Who is voting: the member, or a visitor known by a long-lived signed cookie. The cookie holds
 * a random id and an HMAC of it, so a visitor cannot pick someone else's id (or mint new ones
 * without asking the server), and any node with the shared secret can check it without a row.
 */
export const VISITOR_COOKIE = 'vid';
/** Chrome caps cookie lifetimes at 400 days. */
const VISITOR_COOKIE_MAX_AGE_S = 400 * 24 * 60 * 60;
// A label of its own, so an HMAC made with the same secret for something else (CSRF tokens,
// upload URLs) is never a valid visitor cookie.
const CONTEXT = 'daily-grind/visitor-id/v1';

function signature(secret: string, id: string): string {
  return createHmac('sha256', secret).update(CONTEXT).update('\0').update(id).digest('base64url');
}

export function signVisitorId(id: string, secret: string): string {
  return `${id}.${signature(secret, id)}`;
}

/** The visitor id inside a cookie value, or null when it is not one this site signed. */
export function verifyVisitorCookie(value: string | undefined, secret: string): string | null {
  if (typeof value !== 'string') return null;
  const match = /^([A-Za-z0-9_-]{22})\.([A-Za-z0-9_-]{43})$/.exec(value);
  if (!match) return null;
  const [, id, given] = match as unknown as [string, string, string];
  const expected = Buffer.from(signature(secret, id));
  const actual = Buffer.from(given);
  return expected.length === actual.length && timingSafeEqual(expected, actual) ? id : null;
}

export function newVisitorId(): string {
  return randomBytes(16).toString('base64url');
}

export const memberVoter = (userId: number) => `u:${userId}`;
export const visitorVoter = (visitorId: string) => `v:${visitorId}`;

/** The caller's voter key for reads; null for a visitor who has never voted. */
export function currentVoter(request: FastifyRequest): string | null {
  if (request.user) return memberVoter(request.user.id);
  const visitorId = verifyVisitorCookie(
    request.cookies[cookieName(request, VISITOR_COOKIE)],
    request.server.deps.secret,
  );
  return visitorId ? visitorVoter(visitorId) : null;
}

/** The caller's voter key for a vote; a first-time visitor gets the cookie with the answer. */
export function voterForVote(request: FastifyRequest, reply: FastifyReply): string {
  const known = currentVoter(request);
  if (known) return known;
  const visitorId = newVisitorId();
  reply.setCookie(cookieName(request, VISITOR_COOKIE), signVisitorId(visitorId, request.server.deps.secret), {
    httpOnly: true,
    sameSite: 'lax',
    secure: isSecureRequest(request),
    path: '/',
    maxAge: VISITOR_COOKIE_MAX_AGE_S,
  });
  return visitorVoter(visitorId);
}
