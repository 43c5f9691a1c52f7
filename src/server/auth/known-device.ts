import { createHmac, timingSafeEqual } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { DAY_MS } from '#shared/time.ts';
import { cookieName, isSecureRequest } from '../security/sessions.ts';
import { randomToken } from '../security/random-token.ts';

/**
 * A browser that has signed in to an account with its password before: a long-lived cookie
 * holding the member's id and a random device id, signed with the site's secret. While an
 * account's failed sign-ins from everywhere pause it (service.ts), such a browser signs in
 * still, its own failures counted under its device id: a stranger who knows a name from the
 * leaderboard can pause sign-ins from new browsers, not keep the owner out of their own
 * (OWASP's "device cookies"). The cookie signs nobody in by itself.
 */
const KNOWN_DEVICE_COOKIE = 'kd';
/** Chrome caps cookie lifetimes at 400 days. */
const MAX_AGE_S = (400 * DAY_MS) / 1000;
// A label of its own: no other HMAC made with the site's secret is a valid device cookie.
const CONTEXT = 'daily-grind/known-device/v1';

const mac = (secret: string, text: string) =>
  createHmac('sha256', secret).update(CONTEXT).update('\0').update(text).digest('base64url');

/** The device id of the request's cookie when it was signed for `userId`, else null. */
export function knownDevice(request: FastifyRequest, userId: number): string | null {
  const value = request.cookies[cookieName(request, KNOWN_DEVICE_COOKIE)];
  const match = typeof value === 'string' && /^(\d{1,12})\.([\w-]{22})\.([\w-]{43})$/.exec(value);
  if (!match || Number(match[1]) !== userId) return null;
  const expected = Buffer.from(mac(request.server.deps.secret, `${match[1]}.${match[2]}`));
  const given = Buffer.from(match[3]!);
  return expected.length === given.length && timingSafeEqual(expected, given) ? match[2]! : null;
}

/** Marks this browser as one that signed in to `userId` (a new device id each time). */
export function rememberDevice(request: FastifyRequest, reply: FastifyReply, userId: number): void {
  const signed = `${userId}.${randomToken(16)}`;
  reply.setCookie(
    cookieName(request, KNOWN_DEVICE_COOKIE),
    `${signed}.${mac(request.server.deps.secret, signed)}`,
    {
      httpOnly: true,
      sameSite: 'lax',
      secure: isSecureRequest(request),
      path: '/',
      maxAge: MAX_AGE_S,
    },
  );
}
