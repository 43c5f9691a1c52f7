import { createHmac } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { networkOf } from '../http/client-network.ts';
import { cookieName, isSecureRequest } from '../security/sessions.ts';

/**
 * Who is voting: the member, or for a visitor the network address the vote came from. A visitor
 * vote is worth one per address per meme (docs/decisions/010-hostile-audit-fixes.md): a cookie
 * or anything else the visitor holds can be dropped to become a new voter, an address cannot
 * be changed at will. IPv6 clients are counted by their /64, which one subscriber is given
 * whole. The address is kept only as an HMAC with the site's secret, never in the clear.
 * Visitors who share an address (a household behind one router) share one vote; a member's
 * vote is their own.
 */
// A label of its own, so an HMAC made with the same secret for something else (CSRF tokens,
// upload URLs) never collides with a voter key.
const CONTEXT = 'daily-grind/visitor-address/v1';

export const memberVoter = (userId: number) => `u:${userId}`;

export function addressVoter(ip: string, secret: string): string {
  const digest = createHmac('sha256', secret)
    .update(CONTEXT)
    .update('\0')
    .update(networkOf(ip))
    .digest('base64url');
  return `a:${digest.slice(0, 22)}`;
}

/**
 * Set on a visitor's first vote: it only says "look up this address's votes" on gallery reads,
 * so a visitor who never voted costs no votes query. It is no credential: votes go by address.
 */
export const VOTED_COOKIE = 'voted';
/** Chrome caps cookie lifetimes at 400 days. */
const VOTED_COOKIE_MAX_AGE_S = 400 * 24 * 60 * 60;

/** The caller's voter key for reads; null for a visitor who has not voted from this browser. */
export function currentVoter(request: FastifyRequest): string | null {
  if (request.user) return memberVoter(request.user.id);
  if (request.cookies[cookieName(request, VOTED_COOKIE)] === undefined) return null;
  return addressVoter(request.ip, request.server.deps.secret);
}

/** The caller's voter key for a vote; a visitor's first gets the cookie with the answer. */
export function voterForVote(request: FastifyRequest, reply: FastifyReply): string {
  if (request.user) return memberVoter(request.user.id);
  if (request.cookies[cookieName(request, VOTED_COOKIE)] === undefined) {
    reply.setCookie(cookieName(request, VOTED_COOKIE), '1', {
      httpOnly: true,
      sameSite: 'lax',
      secure: isSecureRequest(request),
      path: '/',
      maxAge: VOTED_COOKIE_MAX_AGE_S,
    });
  }
  return addressVoter(request.ip, request.server.deps.secret);
}
