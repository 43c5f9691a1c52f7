import type { FastifyRequest } from 'fastify';
import ipaddr from 'ipaddr.js';
import {
  generateAuthenticationOptions,
  generateRegistrationOptions,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
  type AuthenticationResponseJSON,
  type AuthenticatorTransport,
  type RegistrationResponseJSON,
} from '@simplewebauthn/server';
import type { Passkey } from '#shared/api/admin.ts';
import type { AppDeps } from '../deps.ts';
import { HttpError, notFound } from '../http-error.ts';
import { findUserPasswordHash } from '../accounts/repository.ts';
import { clientNetwork } from '../http/client-network.ts';
import { verifyPassword } from '../security/password.ts';
import { enforceRateLimit } from '../security/rate-limit.ts';
import type { ConsoleOperator } from './guard.ts';

/** A challenge is good for this long after it is handed out, and once. */
const CHALLENGE_MS = 5 * 60 * 1000;
const PASSWORD_TRIES = { limit: 10, windowMs: 15 * 60 * 1000 };
const PASSKEY_TRIES = { limit: 30, windowMs: 15 * 60 * 1000 };

/** The relying party: the site's own origin and host (PUBLIC_ORIGIN's, else the request's). */
export interface RelyingParty {
  id: string;
  origin: string;
}

/**
 * The relying party for this request, or the reason there can be none: browsers refuse an IP
 * address as a relying party id ("invalid domain"), so an operator who opened the console at
 * one is told which host to use instead.
 */
export function relyingParty(
  request: FastifyRequest,
): { rp: RelyingParty; problem: null } | { rp: null; problem: string } {
  const publicOrigin = request.server.deps.config.publicOrigin;
  const origin = publicOrigin ?? `${request.protocol}://${request.host}`;
  const url = new URL(origin);
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (!ipaddr.isValid(host)) return { rp: { id: host, origin }, problem: null };
  const address = ipaddr.process(host);
  const use =
    address.range() === 'loopback'
      ? `${url.protocol}//localhost${url.port ? `:${url.port}` : ''}${'/admin'}`
      : "the site's domain name";
  return {
    rp: null,
    problem: `Passkeys do not work at an IP address (${host}): browsers refuse it. Open the console at ${use}${publicOrigin ? ' and set PUBLIC_ORIGIN to that host' : ''}.`,
  };
}

function requireRp(request: FastifyRequest): RelyingParty {
  const { rp, problem } = relyingParty(request);
  if (!rp) throw new HttpError(400, problem, 'PASSKEY_HOST');
  return rp;
}

async function limitTries(request: FastifyRequest, kind: string, operator: ConsoleOperator) {
  const { rateLimiter } = request.server.deps;
  const rule = kind === 'password' ? PASSWORD_TRIES : PASSKEY_TRIES;
  const message = 'Too many attempts. Please try again later.';
  await enforceRateLimit(
    rateLimiter,
    `passkey:${kind}:net:${clientNetwork(request)}`,
    rule,
    message,
  );
  await enforceRateLimit(rateLimiter, `passkey:${kind}:user:${operator.id}`, rule, message);
}

async function storeChallenge(deps: AppDeps, sessionIdHash: string, challenge: string) {
  await deps.db
    .updateTable('sessions')
    .set({
      passkey_challenge: challenge,
      passkey_challenge_expires_at: deps.clock.now() + CHALLENGE_MS,
    })
    .where('id_hash', '=', sessionIdHash)
    .execute();
}

/** The session's challenge, used up: a response can be checked against it once. */
async function takeChallenge(deps: AppDeps, sessionIdHash: string): Promise<string> {
  const row = await deps.db
    .selectFrom('sessions')
    .select(['passkey_challenge', 'passkey_challenge_expires_at'])
    .where('id_hash', '=', sessionIdHash)
    .executeTakeFirst();
  await deps.db
    .updateTable('sessions')
    .set({ passkey_challenge: null, passkey_challenge_expires_at: null })
    .where('id_hash', '=', sessionIdHash)
    .execute();
  if (
    !row?.passkey_challenge ||
    row.passkey_challenge_expires_at === null ||
    row.passkey_challenge_expires_at <= deps.clock.now()
  ) {
    throw new HttpError(400, 'The passkey request expired. Please try again.', 'PASSKEY_INVALID');
  }
  return row.passkey_challenge;
}

const transportsOf = (json: string) => JSON.parse(json) as AuthenticatorTransport[];

function toPasskey(row: {
  id: number;
  created_at: number;
  last_used_at: number | null;
  transports: string;
}): Passkey {
  return {
    id: row.id,
    createdAt: row.created_at,
    lastUsedAt: row.last_used_at,
    transports: transportsOf(row.transports),
  };
}

export async function listPasskeys(deps: AppDeps, userId: number): Promise<Passkey[]> {
  const rows = await deps.db
    .selectFrom('passkeys')
    .select(['id', 'created_at', 'last_used_at', 'transports'])
    .where('user_id', '=', userId)
    .orderBy('id')
    .execute();
  return rows.map(toPasskey);
}

async function credentialsOf(deps: AppDeps, userId: number) {
  return deps.db
    .selectFrom('passkeys')
    .select(['id', 'credential_id', 'public_key', 'counter', 'transports'])
    .where('user_id', '=', userId)
    .execute();
}

/** Options to add a passkey, after the operator's password again. */
export async function registrationOptions(
  request: FastifyRequest,
  operator: ConsoleOperator,
  password: string,
) {
  const rp = requireRp(request);
  const { deps } = request.server;
  await limitTries(request, 'password', operator);
  if (!(await verifyPassword(await findUserPasswordHash(deps.db, operator.id), password))) {
    throw new HttpError(403, 'Wrong password', 'WRONG_PASSWORD');
  }
  const existing = await credentialsOf(deps, operator.id);
  const options = await generateRegistrationOptions({
    rpName: 'Operator console',
    rpID: rp.id,
    userName: operator.name,
    userID: new TextEncoder().encode(`member-${operator.id}`),
    attestationType: 'none',
    excludeCredentials: existing.map((c) => ({
      id: c.credential_id,
      transports: transportsOf(c.transports),
    })),
    authenticatorSelection: { residentKey: 'preferred', userVerification: 'required' },
  });
  await storeChallenge(deps, request.sessionIdHash!, options.challenge);
  return options;
}

/** Checks and stores the new passkey; it counts as this session's passkey sign-in. */
export async function registerPasskey(
  request: FastifyRequest,
  operator: ConsoleOperator,
  response: Record<string, unknown>,
): Promise<Passkey> {
  const rp = requireRp(request);
  const { deps } = request.server;
  await limitTries(request, 'passkey', operator);
  const expectedChallenge = await takeChallenge(deps, request.sessionIdHash!);
  let verification;
  try {
    verification = await verifyRegistrationResponse({
      response: response as unknown as RegistrationResponseJSON,
      expectedChallenge,
      expectedOrigin: rp.origin,
      expectedRPID: rp.id,
      requireUserVerification: true,
    });
  } catch (error) {
    throw new HttpError(
      400,
      `The passkey was not accepted: ${(error as Error).message}`,
      'PASSKEY_INVALID',
    );
  }
  if (!verification.verified || !verification.registrationInfo) {
    throw new HttpError(400, 'The passkey was not accepted.', 'PASSKEY_INVALID');
  }
  const { credential } = verification.registrationInfo;
  const now = deps.clock.now();
  const row = await deps.db
    .insertInto('passkeys')
    .values({
      user_id: operator.id,
      credential_id: credential.id,
      public_key: Buffer.from(credential.publicKey).toString('base64url'),
      counter: credential.counter,
      transports: JSON.stringify(credential.transports ?? []),
      created_at: now,
      last_used_at: now,
    })
    .onConflict((oc) => oc.doNothing())
    .returning(['id', 'created_at', 'last_used_at', 'transports'])
    .executeTakeFirst();
  if (!row) throw new HttpError(400, 'This passkey is already registered.', 'PASSKEY_INVALID');
  await markPasskeySignIn(deps, request.sessionIdHash!, now);
  return toPasskey(row);
}

/** Options to sign in with one of the operator's passkeys; 404 when they have none. */
export async function authenticationOptions(request: FastifyRequest, operator: ConsoleOperator) {
  const rp = requireRp(request);
  const { deps } = request.server;
  await limitTries(request, 'passkey', operator);
  const credentials = await credentialsOf(deps, operator.id);
  if (credentials.length === 0) throw notFound('You have no passkey yet: add one first.');
  const options = await generateAuthenticationOptions({
    rpID: rp.id,
    allowCredentials: credentials.map((c) => ({
      id: c.credential_id,
      transports: transportsOf(c.transports),
    })),
    userVerification: 'required',
  });
  await storeChallenge(deps, request.sessionIdHash!, options.challenge);
  return options;
}

/** Checks a passkey sign-in against the operator's own passkeys and marks the session. */
export async function authenticate(
  request: FastifyRequest,
  operator: ConsoleOperator,
  response: Record<string, unknown>,
): Promise<void> {
  const rp = requireRp(request);
  const { deps } = request.server;
  await limitTries(request, 'passkey', operator);
  const expectedChallenge = await takeChallenge(deps, request.sessionIdHash!);
  const id = typeof response.id === 'string' ? response.id : '';
  const credential = (await credentialsOf(deps, operator.id)).find((c) => c.credential_id === id);
  if (!credential) throw new HttpError(400, 'This passkey is not one of yours.', 'PASSKEY_INVALID');
  let verification;
  try {
    verification = await verifyAuthenticationResponse({
      response: response as unknown as AuthenticationResponseJSON,
      expectedChallenge,
      expectedOrigin: rp.origin,
      expectedRPID: rp.id,
      credential: {
        id: credential.credential_id,
        publicKey: new Uint8Array(Buffer.from(credential.public_key, 'base64url')),
        counter: Number(credential.counter),
        transports: transportsOf(credential.transports),
      },
      requireUserVerification: true,
    });
  } catch (error) {
    throw new HttpError(
      400,
      `The passkey sign-in failed: ${(error as Error).message}`,
      'PASSKEY_INVALID',
    );
  }
  if (!verification.verified) {
    throw new HttpError(400, 'The passkey sign-in failed.', 'PASSKEY_INVALID');
  }
  const now = deps.clock.now();
  await deps.db
    .updateTable('passkeys')
    .set({ counter: verification.authenticationInfo.newCounter, last_used_at: now })
    .where('id', '=', credential.id)
    .execute();
  await markPasskeySignIn(deps, request.sessionIdHash!, now);
}

async function markPasskeySignIn(deps: AppDeps, sessionIdHash: string, now: number) {
  await deps.db
    .updateTable('sessions')
    .set({ passkey_at: now })
    .where('id_hash', '=', sessionIdHash)
    .execute();
}

export async function removePasskey(deps: AppDeps, userId: number, id: number): Promise<void> {
  const removed = await deps.db
    .deleteFrom('passkeys')
    .where('id', '=', id)
    .where('user_id', '=', userId)
    .executeTakeFirst();
  if (Number(removed.numDeletedRows) === 0) throw notFound('No such passkey.');
}
