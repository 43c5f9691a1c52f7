import { createHmac, timingSafeEqual } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { clientNetwork } from '../http/client-network.ts';
import { cookieName, isSecureRequest } from '../security/sessions.ts';
import { randomToken } from '../security/random-token.ts';

/**
 * Who is voting: the member, or a visitor known by a long-lived signed cookie holding a random
 * id (docs/decisions/020-reporters-and-visitor-votes.md). A visitor's vote is theirs alone:
 * another visitor behind the same address neither sees nor takes it back. A visitor who drops
 * the cookie becomes a new voter, so what one network can add is bounded instead by the cap
 * on visitor votes counted per meme and network (vote-rules.ts), which needs the network each
 * vote came from: kept only as an HMAC with the site's secret, never in the clear.
 */
export const VISITOR_COOKIE = 'vid';
/** Chrome caps cookie lifetimes at 400 days. */
const VISITOR_COOKIE_MAX_AGE_S = 400 * 24 * 60 * 60;
// Labels of their own, so an HMAC made with the same secret for something else (CSRF tokens,
// upload URLs) is never a valid visitor cookie or network key.
const ID_CONTEXT = 'daily-grind/visitor-id/v1';
const NETWORK_CONTEXT = 'daily-grind/network/v1';

function hmac(secret: string, context: string, text: string): string {
  return createHmac('sha256', secret).update(context).update('\0').update(text).digest('base64url');
}

function signVisitorId(id: string, secret: string): string {
  return `${id}.${hmac(secret, ID_CONTEXT, id)}`;
}

/** The visitor id inside a cookie value, or null when it is not one this site signed. */
export function verifyVisitorCookie(value: string | undefined, secret: string): string | null {
  if (typeof value !== 'string') return null;
  const match = /^([A-Za-z0-9_-]{22})\.([A-Za-z0-9_-]{43})$/.exec(value);
  if (!match) return null;
  const [, id, given] = match as unknown as [string, string, string];
  const expected = Buffer.from(hmac(secret, ID_CONTEXT, id));
  const actual = Buffer.from(given);
  return expected.length === actual.length && timingSafeEqual(expected, actual) ? id : null;
}

export const memberVoter = (userId: number) => `u:${userId}`;
export const visitorVoter = (visitorId: string) => `v:${visitorId}`;

/**
 * The caller's network as it is stored (`n:<HMAC>`): an IPv4 address or an IPv6 /48, the most
 * one subscriber holds (http/client-network.ts), so walking one's own prefix gains nothing.
 * What the visitor-vote cap and the reports' hiding threshold count.
 */
export function networkIdentity(request: FastifyRequest): string {
  const network = clientNetwork(request, 'subscriber');
  return `n:${hmac(request.server.deps.secret, NETWORK_CONTEXT, network).slice(0, 22)}`;
}

/**
 * The caller's voter key for reads; null for a visitor without a valid cookie, so a visitor who
 * never voted costs no votes query.
 */
export function currentVoter(request: FastifyRequest): string | null {
  if (request.user) return memberVoter(request.user.id);
  const visitorId = verifyVisitorCookie(
    request.cookies[cookieName(request, VISITOR_COOKIE)],
    request.server.deps.secret,
  );
  return visitorId ? visitorVoter(visitorId) : null;
}

export interface Voter {
  key: string;
  /** The visitor's network (networkIdentity); null for a member, whose votes are not capped. */
  network: string | null;
}

/** Who casts this vote; a visitor without a valid cookie gets a new id with the answer. */
export function voterForVote(request: FastifyRequest, reply: FastifyReply): Voter {
  if (request.user) return { key: memberVoter(request.user.id), network: null };
  const network = networkIdentity(request);
  const known = currentVoter(request);
  if (known) return { key: known, network };
  const visitorId = randomToken(16);
  reply.setCookie(
    cookieName(request, VISITOR_COOKIE),
    signVisitorId(visitorId, request.server.deps.secret),
    {
      httpOnly: true,
      sameSite: 'lax',
      secure: isSecureRequest(request),
      path: '/',
      maxAge: VISITOR_COOKIE_MAX_AGE_S,
    },
  );
  return { key: visitorVoter(visitorId), network };
}
