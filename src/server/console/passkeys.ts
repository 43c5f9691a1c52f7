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
import type { Kysely, Transaction } from 'kysely';
import type { Passkey } from '#shared/api/console/passkeys.ts';
import type { Database, PasskeyCeremony } from '../db/database.ts';
import type { AppDeps } from '../deps.ts';
import { HttpError, notFound } from '../http-error.ts';
import { findUserPasswordHash } from '../accounts/repository.ts';
import { recordDecision } from '../db/operator-log.ts';
import { endSessionsOf } from '../security/sessions.ts';
import { clientNetwork } from '../http/client-network.ts';
import { verifyPassword } from '../security/password.ts';
import { enforceRateLimit } from '../security/rate-limit.ts';
import type { ConsoleOperator } from './guard.ts';

/**
 * A challenge is good for this long after it is handed out (the browser's prompt is given the
 * same time), once, and for the ceremony it was made for alone.
 */
const CHALLENGE_MS = 5 * 60 * 1000;
const PASSWORD_TRIES = { limit: 10, windowMs: 15 * 60 * 1000 };
const PASSKEY_TRIES = { limit: 30, windowMs: 15 * 60 * 1000 };

/** The relying party: the site's own origin and host (PUBLIC_ORIGIN's; localhost without it). */
export interface RelyingParty {
  id: string;
  origin: string;
}

type RelyingPartyAnswer =
  | { rp: RelyingParty; problem: null; code: null }
  | { rp: null; problem: string; code: 'PASSKEY_HOST' | 'PASSKEY_NO_ORIGIN' };

/**
 * The relying party for this request, or why there can be none, said so that the operator
 * knows what to do. PUBLIC_ORIGIN names it; without PUBLIC_ORIGIN only `localhost` (a developer's
 * machine) is taken from the request, since a Host header is the client's word. Browsers refuse
 * an IP address as a relying party id ("invalid domain"), so an operator who opened the console
 * at one is told which host to use instead.
 */
export function relyingParty(request: FastifyRequest): RelyingPartyAnswer {
  const publicOrigin = request.server.deps.config.publicOrigin;
  let url: URL | null = null;
  try {
    url = new URL(publicOrigin ?? `${request.protocol}://${request.host}`);
  } catch {
    // A Host header no URL can hold: no site to name.
  }
  const host = url ? url.hostname.replace(/^\[|\]$/g, '') : '';
  if (url && ipaddr.isValid(host)) {
    const loopback = ipaddr.process(host).range() === 'loopback';
    const use = loopback
      ? `${url.protocol}//localhost${url.port ? `:${url.port}` : ''}/admin${publicOrigin ? ' and set PUBLIC_ORIGIN to that origin' : ''}`
      : "the site's domain name, with PUBLIC_ORIGIN set to it";
    return {
      rp: null,
      code: 'PASSKEY_HOST',
      problem: `Passkeys do not work at an IP address (${host}): browsers refuse it. Open the console at ${use}.`,
    };
  }
  if (!url || (!publicOrigin && host !== 'localhost')) {
    return {
      rp: null,
      code: 'PASSKEY_NO_ORIGIN',
      problem:
        "Passkeys are off on this server: PUBLIC_ORIGIN is not set, and without it they work only at localhost (the site's name is not taken from the request). Set PUBLIC_ORIGIN to the site's https origin and restart.",
    };
  }
  return { rp: { id: host, origin: url.origin }, problem: null, code: null };
}

type Tries = 'password' | 'passkey';

async function limitTries(request: FastifyRequest, kind: Tries, operator: ConsoleOperator) {
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

/**
 * The relying party for one step of a ceremony, refused when there can be none; the step then
 * counts against the operator's tries (of the password, or of a passkey).
 */
async function stepRelyingParty(
  request: FastifyRequest,
  operator: ConsoleOperator,
  tries: Tries,
): Promise<RelyingParty> {
  const answer = relyingParty(request);
  if (!answer.rp) throw new HttpError(400, answer.problem, answer.code);
  await limitTries(request, tries, operator);
  return answer.rp;
}

/** A ceremony's options, handed out once their challenge is kept on the session. */
async function handOut<Options extends { challenge: string }>(
  request: FastifyRequest,
  ceremony: PasskeyCeremony,
  options: Options,
): Promise<Options> {
  const { deps } = request.server;
  await deps.db
    .updateTable('sessions')
    .set({
      passkey_challenge: options.challenge,
      passkey_challenge_kind: ceremony,
      passkey_challenge_expires_at: deps.clock.now() + CHALLENGE_MS,
    })
    .where('id_hash', '=', request.sessionIdHash!)
    .execute();
  return options;
}

const EXPIRED = 'The passkey request expired. Please try again.';

/**
 * The session's challenge for `ceremony`, used up: a response is checked against it once. It is
 * spent whatever follows (a late answer or the wrong ceremony does not leave it for another
 * try), and taken by one request only (the update matches the value read). A challenge made to
 * sign in is refused for adding a passkey: only registration-options makes that one, and only
 * after the password in the same request.
 */
async function takeChallenge(
  deps: AppDeps,
  sessionIdHash: string,
  ceremony: PasskeyCeremony,
): Promise<string> {
  const row = await deps.db
    .selectFrom('sessions')
    .select(['passkey_challenge', 'passkey_challenge_kind', 'passkey_challenge_expires_at'])
    .where('id_hash', '=', sessionIdHash)
    .executeTakeFirst();
  if (!row?.passkey_challenge) throw new HttpError(400, EXPIRED, 'PASSKEY_INVALID');
  const taken = await deps.db
    .updateTable('sessions')
    .set({
      passkey_challenge: null,
      passkey_challenge_kind: null,
      passkey_challenge_expires_at: null,
    })
    .where('id_hash', '=', sessionIdHash)
    .where('passkey_challenge', '=', row.passkey_challenge)
    .executeTakeFirst();
  if (Number(taken.numUpdatedRows) === 0) throw new HttpError(400, EXPIRED, 'PASSKEY_INVALID');
  if (row.passkey_challenge_kind !== ceremony) {
    throw new HttpError(
      400,
      ceremony === 'registration'
        ? 'This request was not made to add a passkey: ask again with your password.'
        : 'This request was not made to sign in with a passkey. Please try again.',
      'PASSKEY_INVALID',
    );
  }
  if (
    row.passkey_challenge_expires_at === null ||
    row.passkey_challenge_expires_at <= deps.clock.now()
  ) {
    throw new HttpError(400, EXPIRED, 'PASSKEY_INVALID');
  }
  return row.passkey_challenge;
}

const transportsOf = (json: string) => JSON.parse(json) as AuthenticatorTransport[];

const PASSKEY_FIELDS = ['id', 'name', 'created_at', 'last_used_at', 'transports'] as const;

function toPasskey(row: {
  id: number;
  name: string | null;
  created_at: number;
  last_used_at: number | null;
  transports: string;
}): Passkey {
  return {
    id: row.id,
    name: row.name,
    createdAt: row.created_at,
    lastUsedAt: row.last_used_at,
    transports: transportsOf(row.transports),
  };
}

export async function listPasskeys(deps: AppDeps, userId: number): Promise<Passkey[]> {
  const rows = await deps.db
    .selectFrom('passkeys')
    .select(PASSKEY_FIELDS)
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

/** A stored passkey as a ceremony's options name it to the browser. */
const descriptorOf = (c: { credential_id: string; transports: string }) => ({
  id: c.credential_id,
  transports: transportsOf(c.transports),
});

/** The browser's answer, as @simplewebauthn checked it: a check that throws is a refusal. */
async function checked<Verification>(
  refusal: string,
  verify: () => Promise<Verification>,
): Promise<Verification> {
  try {
    return await verify();
  } catch (error) {
    throw new HttpError(400, `${refusal}: ${(error as Error).message}`, 'PASSKEY_INVALID');
  }
}

/**
 * What the browser's answer to `ceremony` must match: this site as the relying party, the
 * session's challenge for that ceremony (used up here) and a verified user. The answer counts
 * against the operator's passkey tries before its challenge is spent.
 */
async function expectedAnswer(
  request: FastifyRequest,
  operator: ConsoleOperator,
  ceremony: PasskeyCeremony,
) {
  const rp = await stepRelyingParty(request, operator, 'passkey');
  return {
    expectedChallenge: await takeChallenge(request.server.deps, request.sessionIdHash!, ceremony),
    expectedOrigin: rp.origin,
    expectedRPID: rp.id,
    requireUserVerification: true,
  };
}

/** Options to add a passkey, after the operator's password again. */
export async function registrationOptions(
  request: FastifyRequest,
  operator: ConsoleOperator,
  password: string,
) {
  const rp = await stepRelyingParty(request, operator, 'password');
  const { deps } = request.server;
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
    excludeCredentials: existing.map(descriptorOf),
    authenticatorSelection: { residentKey: 'preferred', userVerification: 'required' },
    timeout: CHALLENGE_MS,
  });
  return handOut(request, 'registration', options);
}

/**
 * Checks and stores the new passkey under `name`, logged; it counts as this session's passkey
 * sign-in and ends every other session of the operator.
 */
export async function registerPasskey(
  request: FastifyRequest,
  operator: ConsoleOperator,
  response: Record<string, unknown>,
  name: string | null = null,
): Promise<Passkey> {
  const { deps } = request.server;
  const expected = await expectedAnswer(request, operator, 'registration');
  const verification = await checked('The passkey was not accepted', () =>
    verifyRegistrationResponse({
      response: response as unknown as RegistrationResponseJSON,
      ...expected,
    }),
  );
  if (!verification.verified || !verification.registrationInfo) {
    throw new HttpError(400, 'The passkey was not accepted.', 'PASSKEY_INVALID');
  }
  const { credential } = verification.registrationInfo;
  const sessionIdHash = request.sessionIdHash!;
  const now = deps.clock.now();
  const { passkey, ended } = await deps.db.transaction().execute(async (trx) => {
    const row = await trx
      .insertInto('passkeys')
      .values({
        user_id: operator.id,
        credential_id: credential.id,
        public_key: Buffer.from(credential.publicKey).toString('base64url'),
        counter: credential.counter,
        transports: JSON.stringify(credential.transports ?? []),
        created_at: now,
        last_used_at: now,
        name,
      })
      .onConflict((oc) => oc.doNothing())
      .returning(PASSKEY_FIELDS)
      .executeTakeFirst();
    if (!row) throw new HttpError(400, 'This passkey is already registered.', 'PASSKEY_INVALID');
    await markPasskeySignIn(trx, sessionIdHash, now);
    const ended = await endSessionsOf(trx, operator.id, sessionIdHash);
    await recordDecision(
      trx,
      operator,
      {
        kind: 'passkey-add',
        targetType: 'member',
        targetId: operator.id,
        targetLabel: operator.name,
        reason: 'added in the console',
        details: { passkey: row.id, name, endedSessions: ended.length },
      },
      now,
    );
    return { passkey: toPasskey(row), ended };
  });
  for (const idHash of ended) deps.sessions.delete(idHash);
  return passkey;
}

/** Options to sign in with one of the operator's passkeys; 404 when they have none. */
export async function authenticationOptions(request: FastifyRequest, operator: ConsoleOperator) {
  const rp = await stepRelyingParty(request, operator, 'passkey');
  const { deps } = request.server;
  const credentials = await credentialsOf(deps, operator.id);
  if (credentials.length === 0) throw notFound('You have no passkey yet: add one first.');
  const options = await generateAuthenticationOptions({
    rpID: rp.id,
    allowCredentials: credentials.map(descriptorOf),
    userVerification: 'required',
    timeout: CHALLENGE_MS,
  });
  return handOut(request, 'authentication', options);
}

/** Checks a passkey sign-in against the operator's own passkeys and marks the session. */
export async function authenticate(
  request: FastifyRequest,
  operator: ConsoleOperator,
  response: Record<string, unknown>,
): Promise<void> {
  const { deps } = request.server;
  const expected = await expectedAnswer(request, operator, 'authentication');
  const id = typeof response.id === 'string' ? response.id : '';
  const credential = (await credentialsOf(deps, operator.id)).find((c) => c.credential_id === id);
  if (!credential) throw new HttpError(400, 'This passkey is not one of yours.', 'PASSKEY_INVALID');
  const verification = await checked('The passkey sign-in failed', () =>
    verifyAuthenticationResponse({
      response: response as unknown as AuthenticationResponseJSON,
      ...expected,
      credential: {
        id: credential.credential_id,
        publicKey: new Uint8Array(Buffer.from(credential.public_key, 'base64url')),
        counter: Number(credential.counter),
        transports: transportsOf(credential.transports),
      },
    }),
  );
  if (!verification.verified) {
    throw new HttpError(400, 'The passkey sign-in failed.', 'PASSKEY_INVALID');
  }
  const now = deps.clock.now();
  await deps.db
    .updateTable('passkeys')
    .set({ counter: verification.authenticationInfo.newCounter, last_used_at: now })
    .where('id', '=', credential.id)
    .execute();
  await markPasskeySignIn(deps.db, request.sessionIdHash!, now);
}

/** A passkey sign-in: the step-up's sliding time and its absolute start both begin now. */
async function markPasskeySignIn(
  db: Kysely<Database> | Transaction<Database>,
  sessionIdHash: string,
  now: number,
) {
  await db
    .updateTable('sessions')
    .set({ passkey_at: now, passkey_signed_in_at: now })
    .where('id_hash', '=', sessionIdHash)
    .execute();
}

/**
 * Names one of the operator's own passkeys, logged. A name opens nothing, so no session ends.
 */
export async function renamePasskey(
  deps: AppDeps,
  operator: ConsoleOperator,
  id: number,
  name: string,
): Promise<Passkey> {
  return deps.db.transaction().execute(async (trx) => {
    const row = await trx
      .updateTable('passkeys')
      .set({ name })
      .where('id', '=', id)
      .where('user_id', '=', operator.id)
      .returning(PASSKEY_FIELDS)
      .executeTakeFirst();
    if (!row) throw notFound('No such passkey.');
    await recordDecision(
      trx,
      operator,
      {
        kind: 'passkey-rename',
        targetType: 'member',
        targetId: operator.id,
        targetLabel: operator.name,
        reason: 'named in the console',
        details: { passkey: id, name },
      },
      deps.clock.now(),
    );
    return toPasskey(row);
  });
}

/** Removes one of the operator's passkeys, logged, and ends every other session of theirs. */
export async function removePasskey(
  deps: AppDeps,
  operator: ConsoleOperator,
  id: number,
  sessionIdHash: string,
): Promise<void> {
  const now = deps.clock.now();
  const ended = await deps.db.transaction().execute(async (trx) => {
    const removed = await trx
      .deleteFrom('passkeys')
      .where('id', '=', id)
      .where('user_id', '=', operator.id)
      .returning('name')
      .executeTakeFirst();
    if (!removed) throw notFound('No such passkey.');
    const ended = await endSessionsOf(trx, operator.id, sessionIdHash);
    await recordDecision(
      trx,
      operator,
      {
        kind: 'passkey-remove',
        targetType: 'member',
        targetId: operator.id,
        targetLabel: operator.name,
        reason: 'removed in the console',
        details: { passkey: id, name: removed.name, endedSessions: ended.length },
      },
      now,
    );
    return ended;
  });
  for (const idHash of ended) deps.sessions.delete(idHash);
}
