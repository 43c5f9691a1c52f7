import type { z } from 'zod';
import type { ErrorCode, ErrorStatus } from './error-codes.ts';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/**
 * Who may call an endpoint, as the OpenAPI document states it and the server enforces it:
 * `public` anyone (no session read), `visitor` anyone in the session scope (a member or a
 * visitor with cookies), `member` a signed-in member, `operator` the console (a role and a fresh
 * passkey sign-in).
 */
export type Access = 'public' | 'visitor' | 'member' | 'operator';

/**
 * One HTTP endpoint, whole: the server registers its route from this object
 * (server/http/endpoint-route.ts), the client calls it through it (client/lib/api-call.ts) and
 * the OpenAPI document is generated from it (server/plugins/openapi.ts). Nothing about an
 * endpoint is chosen anywhere else.
 */
export interface Endpoint {
  readonly method: HttpMethod;
  /** A route pattern from paths.ts (`/api/memes/:id/vote`). */
  readonly path: string;
  /** OpenAPI operationId: unique, camelCase. */
  readonly id: string;
  readonly summary: string;
  readonly tag: string;
  readonly access: Access;
  /** A write the spec's client sends without an `X-CSRF-Token` (the origin check still holds). */
  readonly csrfExempt?: true;
  readonly params?: z.ZodType;
  readonly query?: z.ZodType;
  readonly body?: z.ZodType;
  /** The success status (200 unless stated) and its body. */
  readonly status?: 200 | 201 | 202;
  readonly response: z.ZodType;
  /** A success body that is not JSON (a plain-text figure for listing sites); errors stay JSON. */
  readonly produces?: 'text/plain';
  /** Every refusal the endpoint may answer, by status, with its codes. */
  readonly errors: Partial<Record<ErrorStatus, readonly ErrorCode[]>>;
}

/**
 * Declares an endpoint; `const` keeps every schema's own type for the server and the client.
 * Marked free of side effects so a bundle drops the endpoints its code never calls.
 */
/* #__NO_SIDE_EFFECTS__ */
export function defineEndpoint<const E extends Endpoint>(endpoint: E): E {
  return endpoint;
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
} as const satisfies Endpoint['errors'];

/** What any endpoint that takes a body may answer about the body itself, before its rules. */
export const BODY_ERRORS = {
  413: ['PAYLOAD_TOO_LARGE'],
  415: ['UNSUPPORTED_MEDIA_TYPE'],
} as const satisfies Endpoint['errors'];

/**
 * Every code the endpoint may answer, by status: its own joined with the common ones (and, for a
 * write, the body's).
 */
export function declaredErrors(endpoint: Endpoint): Record<number, readonly ErrorCode[]> {
  const all: Record<number, ErrorCode[]> = {};
  const common = endpoint.method === 'GET' ? [COMMON_ERRORS] : [COMMON_ERRORS, BODY_ERRORS];
  for (const errors of [...common, endpoint.errors] as Endpoint['errors'][]) {
    for (const [status, codes] of Object.entries(errors)) {
      const list = (all[Number(status)] ??= []);
      for (const code of codes ?? []) if (!list.includes(code)) list.push(code);
    }
  }
  return all;
}

/** A write's refusals in the session scope: a missing or stale CSRF token, another site's request. */
export const WRITE_REFUSALS = ['CSRF', 'CROSS_SITE'] as const satisfies readonly ErrorCode[];

/**
 * A write a suspended member may not make (upload, post, vote, report, run, score, buy, link a wallet): 403
 * `SUSPENDED` with the reason and end time (server/suspensions/suspensions.ts), beside the above.
 */
export const MEMBER_WRITE_REFUSALS = [
  ...WRITE_REFUSALS,
  'SUSPENDED',
] as const satisfies readonly ErrorCode[];
