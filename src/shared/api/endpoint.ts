import { z } from 'zod';
import type { ErrorCode, ErrorStatus } from './error-codes.ts';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/**
 * Who may call an endpoint, as the OpenAPI document states it and the server enforces it: the
 * route's first guard is the one its `access` names (server/http/endpoint-route.ts), run before
 * the body is read, and the codes that guard may answer are the endpoint's without being listed
 * (`accessErrors`).
 * - `public`: anyone; no session is read (the public scope).
 * - `visitor`: anyone in the session scope, a member or a visitor with cookies.
 * - `member`: a signed-in member; a visitor gets 401 with the endpoint's `signIn`.
 * - `moderator`, `admin`: the console (an admin may do all a moderator may): a member without
 *   the role gets 403, and so does a session without a fresh passkey sign-in unless the endpoint
 *   is `beforePasskey`; the console's writes count against its per-network write limit.
 */
export type Access = 'public' | 'visitor' | 'member' | ConsoleAccess;
export type ConsoleAccess = 'moderator' | 'admin';

/** Who may call an endpoint, with what only that level needs. */
export type EndpointAccess =
  | { readonly access: 'public' | 'visitor' }
  | {
      readonly access: 'member';
      /** The 401 a visitor gets, in words the page shows ('Please log in to upload memes'). */
      readonly signIn: string;
    }
  | {
      readonly access: ConsoleAccess;
      /** Reached before the passkey step-up: who is signed in, and the passkey steps themselves. */
      readonly beforePasskey?: true;
    };

/**
 * One HTTP endpoint, whole: the server registers its route from this object
 * (server/http/endpoint-route.ts), the client calls it through it (client/lib/api-call.ts) and
 * the OpenAPI document is generated from it (server/plugins/openapi.ts). Nothing about an
 * endpoint is chosen anywhere else.
 */
export type Endpoint = EndpointAccess & EndpointParts;

/** An endpoint beside who may call it. */
type EndpointParts = {
  readonly method: HttpMethod;
  /** A route pattern from paths.ts (`/api/memes/:id/vote`). */
  readonly path: string;
  /** OpenAPI operationId: unique, camelCase. */
  readonly id: string;
  readonly summary: string;
  readonly tag: string;
  /** A write the spec's client sends without an `X-CSRF-Token` (the origin check still holds). */
  readonly csrfExempt?: true;
  /** Whom this write refuses for who they are, whatever they ask (`WriteRefusals`). */
  readonly refuses?: WriteRefusals;
  readonly params?: z.ZodType;
  readonly query?: z.ZodType;
  readonly body?: z.ZodType;
  /** The success status (200 unless stated) and its body. */
  readonly status?: 200 | 201 | 202;
  readonly response: z.ZodType;
  /** A success body that is not JSON (a plain-text figure for listing sites); errors stay JSON. */
  readonly produces?: 'text/plain';
  /**
   * The endpoint's own refusals, by status, with their codes: beside them it answers those of its
   * access (`accessErrors`), of a write (`writeRefusals`, `BODY_ERRORS`) and the common ones.
   */
  readonly errors?: ErrorsByStatus;
};

export type ErrorsByStatus = Partial<Record<ErrorStatus, readonly ErrorCode[]>>;

/**
 * A write's refusals for the caller's standing rather than for what is asked, checked before its
 * body is read (the session scope installs them from here, server/app.ts):
 * - `suspended`: a suspended member's, 403 `SUSPENDED` with the reason and the end (decision 022);
 * - `raid`: while raid mode is on, an account of standing New's, 403 `RAID_MODE` (decision 027),
 *   and with `'new accounts and visitors'` a visitor's too.
 */
export interface WriteRefusals {
  readonly suspended?: true;
  readonly raid?: 'new accounts' | 'new accounts and visitors';
}

/** The answer of a write that has nothing more to tell. */
export const okSchema = z.object({ ok: z.literal(true) });

/**
 * What the endpoints of an area (or of one kind in it) share, written once beside them: a tag,
 * who may call them, a params schema, refusals. Never a method or a path: each endpoint has its own.
 */
type EndpointGroup = Partial<Omit<EndpointParts, 'method' | 'path' | 'id' | 'summary'>> & {
  readonly access?: Access;
  readonly signIn?: string;
  readonly beforePasskey?: true;
};
type OwnParts = Partial<EndpointParts> & EndpointGroup;

type Codes<E, S> = S extends keyof E ? (E[S] extends readonly ErrorCode[] ? E[S] : []) : [];
type ErrorsOf<T> = T extends { readonly errors: infer E } ? E : object;
/** The group's refusals and the endpoint's own, status by status, the group's first. */
type JoinedErrors<G, O> = [keyof ErrorsOf<G> | keyof ErrorsOf<O>] extends [never]
  ? object
  : {
      readonly errors: {
        readonly [S in keyof ErrorsOf<G> | keyof ErrorsOf<O>]: readonly [
          ...Codes<ErrorsOf<G>, S>,
          ...Codes<ErrorsOf<O>, S>,
        ];
      };
    };
/** A group's parts with an endpoint's (or a narrower group's): its own win, refusals join. */
type Joined<G, O> = Flat<Omit<G, keyof O | 'errors'> & Omit<O, 'errors'> & JoinedErrors<G, O>>;
type Flat<T> = { [K in keyof T]: T[K] } & {};
/** The access variant an endpoint with these parts must meet (a member's needs `signIn`). */
type AccessVariant<E> = EndpointAccess extends infer V
  ? V extends EndpointAccess
    ? E extends { readonly access: V['access'] }
      ? V
      : never
    : never
  : never;
/** What an endpoint must state itself beside its group's parts: asked for only when it falls short. */
type OwnRequired<G, O> = [AccessVariant<Joined<G, O>>] extends [never]
  ? { readonly access: Access }
  : Omit<AccessVariant<Joined<G, O>> & EndpointParts, keyof G>;

function joined(group: EndpointGroup, own: OwnParts): OwnParts {
  if (!group.errors || !own.errors) return { ...group, ...own };
  const errors: Record<string, readonly ErrorCode[]> = { ...group.errors };
  for (const [status, codes] of Object.entries(own.errors)) {
    errors[status] = [...(errors[status] ?? []), ...(codes ?? [])];
  }
  return { ...group, ...own, errors };
}

/**
 * Declares an endpoint, whole or as its group's parts and its own; `const` keeps every schema's
 * own type for the server and the client. Marked free of side effects so a bundle drops the
 * endpoints its code never calls.
 */
export function defineEndpoint<const E extends Endpoint>(endpoint: E): E;
export function defineEndpoint<const G extends EndpointGroup, const O extends OwnParts>(
  group: G,
  own: O & (Joined<G, O> extends Endpoint ? unknown : OwnRequired<G, O>),
): Joined<G, O>;
/* #__NO_SIDE_EFFECTS__ */
export function defineEndpoint(endpointOrGroup: OwnParts, own?: OwnParts): OwnParts {
  return own ? joined(endpointOrGroup, own) : endpointOrGroup;
}

/** Declares what a group of endpoints shares (`defineEndpoint(group, own)`), or a narrower group. */
export function endpointGroup<const G extends EndpointGroup>(group: G): G;
export function endpointGroup<const G extends EndpointGroup, const O extends EndpointGroup>(
  group: G,
  narrower: O,
): Joined<G, O>;
/* #__NO_SIDE_EFFECTS__ */
export function endpointGroup(group: EndpointGroup, narrower?: EndpointGroup): EndpointGroup {
  return narrower ? joined(group, narrower) : group;
}

type Input<S> = S extends z.ZodType ? z.input<S> : never;
type Output<S> = S extends z.ZodType ? z.output<S> : undefined;

/** What a client passes to call an endpoint: only the parts it declares, each typed. */
export type EndpointInput<E extends Endpoint> = ([E['params']] extends [z.ZodType]
  ? { params: Input<E['params']> }
  : { params?: never }) &
  ([E['query']] extends [z.ZodType] ? { query?: Input<E['query']> } : { query?: never }) &
  ([E['body']] extends [z.ZodType] ? { body: Input<E['body']> } : { body?: never });

export type EndpointResponse<E extends Endpoint> = z.output<E['response']>;
export type EndpointParams<E extends Endpoint> = Output<E['params']>;
export type EndpointQuery<E extends Endpoint> = Output<E['query']>;
export type EndpointBody<E extends Endpoint> = Output<E['body']>;

/** The statuses an endpoint answers for any caller, beside its own. */
export const COMMON_ERRORS = {
  400: ['VALIDATION', 'BAD_REQUEST'],
  503: ['UNAVAILABLE'],
} as const satisfies ErrorsByStatus;

/** What any endpoint that takes a body may answer about the body itself, before its rules. */
export const BODY_ERRORS = {
  413: ['PAYLOAD_TOO_LARGE'],
  415: ['UNSUPPORTED_MEDIA_TYPE'],
} as const satisfies ErrorsByStatus;

/**
 * A write's refusals in the session scope (every write is in one): another site's request, and
 * a missing or stale CSRF token unless the endpoint is `csrfExempt`.
 */
export function writeRefusals(endpoint: Endpoint): ErrorsByStatus {
  if (endpoint.method === 'GET') return {};
  return { 403: endpoint.csrfExempt ? ['CROSS_SITE'] : ['CSRF', 'CROSS_SITE'] };
}

/** What the refusals an endpoint's `refuses` names answer. */
export function standingErrors({ refuses }: Endpoint): ErrorsByStatus {
  if (!refuses) return {};
  return {
    403: [
      ...(refuses.suspended ? (['SUSPENDED'] as const) : []),
      ...(refuses.raid ? (['RAID_MODE'] as const) : []),
    ],
  };
}

/** What the guard an endpoint's `access` names may answer (server/http/endpoint-route.ts). */
export function accessErrors(endpoint: Endpoint): ErrorsByStatus {
  switch (endpoint.access) {
    case 'public':
    case 'visitor':
      return {};
    case 'member':
      return { 401: ['UNAUTHORIZED'] };
    case 'moderator':
    case 'admin':
      return {
        401: ['UNAUTHORIZED'],
        403: [
          'NOT_OPERATOR',
          'SUSPENDED',
          ...(endpoint.access === 'admin' ? (['ADMIN_ONLY'] as const) : []),
          ...(endpoint.beforePasskey ? [] : (['PASSKEY_REQUIRED'] as const)),
        ],
        // The console's write limit.
        ...(endpoint.method !== 'GET' && { 429: ['RATE_LIMITED'] }),
      };
  }
}

/**
 * Every code the endpoint may answer, by status: its own joined with the common ones, its
 * access's, its standing refusals', and for a write the body's and the session scope's.
 */
export function declaredErrors(endpoint: Endpoint): Record<number, readonly ErrorCode[]> {
  const all: Record<number, ErrorCode[]> = {};
  const write = endpoint.method === 'GET' ? [] : [BODY_ERRORS, writeRefusals(endpoint)];
  for (const errors of [
    COMMON_ERRORS,
    ...write,
    accessErrors(endpoint),
    standingErrors(endpoint),
    endpoint.errors ?? {},
  ] as ErrorsByStatus[]) {
    for (const [status, codes] of Object.entries(errors)) {
      const list = (all[Number(status)] ??= []);
      for (const code of codes ?? []) if (!list.includes(code)) list.push(code);
    }
  }
  return all;
}
