import type {
  FastifyInstance,
  FastifyReply,
  FastifyRequest,
  onRequestHookHandler,
  preHandlerHookHandler,
  RouteHandlerMethod,
} from 'fastify';
import type {
  ConsoleAccess,
  Endpoint,
  EndpointBody,
  EndpointParams,
  EndpointQuery,
  EndpointResponse,
} from '#shared/api/endpoint.ts';
import type { SessionUser } from '../deps.ts';
import { membersOnly } from '../security/session-scope.ts';

/** A member's or an operator's request has its member: the access guard ran first. */
type Caller<E extends Endpoint> = [E['access']] extends ['member' | ConsoleAccess]
  ? { user: SessionUser }
  : unknown;

type EndpointRequest<E extends Endpoint> = FastifyRequest<{
  Params: EndpointParams<E>;
  Querystring: EndpointQuery<E>;
  Body: EndpointBody<E>;
}> &
  Caller<E>;

/** A handler answers the endpoint's response body, or sends its own answer through `reply`. */
export type EndpointHandler<E extends Endpoint> = (
  request: EndpointRequest<E>,
  reply: FastifyReply,
) => Promise<EndpointResponse<E> | FastifyReply>;

/**
 * What a route adds to its endpoint: its own checks before the body is read (after the guard its
 * access names), a body limit.
 */
export interface RouteExtras {
  onRequest?: onRequestHookHandler | onRequestHookHandler[];
  preHandler?: preHandlerHookHandler | preHandlerHookHandler[];
  bodyLimit?: number;
}

/**
 * What the console lends endpointRoute for a moderator's or an admin's endpoint: its guard
 * (console/guard.ts, a domain's, which infrastructure cannot import) and its write limit.
 * app.ts decorates the console's scope with it, so a console endpoint registered anywhere else
 * stops start-up.
 */
export interface ConsoleAccessHooks {
  /** The operator check for `role` (and the passkey step-up unless `passkey` is false). */
  guard(role: ConsoleAccess, options: { passkey: boolean }): onRequestHookHandler;
  /** The console's per-network write limit, after the guard on every console write. */
  writeLimit: onRequestHookHandler;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The endpoint a route was registered from: CSRF exemption and OpenAPI read it. */
    endpoint?: Endpoint;
  }
  interface FastifyInstance {
    /** Set on the console's scope only (app.ts). */
    consoleAccess?: ConsoleAccessHooks;
  }
}

/**
 * The guard `access` names, first among the route's onRequest hooks (after the scope's session
 * look-up, before the body is read): a member's endpoint answers a visitor 401 with its
 * `signIn`; a console endpoint runs the console's guard, and for a write its write limit.
 */
function accessGuards(scope: FastifyInstance, endpoint: Endpoint): onRequestHookHandler[] {
  switch (endpoint.access) {
    case 'public':
    case 'visitor':
      return [];
    case 'member':
      return [membersOnly(endpoint.signIn)];
    case 'moderator':
    case 'admin': {
      const hooks = scope.consoleAccess;
      if (!hooks) {
        throw new Error(
          `${endpoint.method} ${endpoint.path}: a console endpoint belongs in the console's scope (consoleAccess, app.ts)`,
        );
      }
      const guard = hooks.guard(endpoint.access, { passkey: !endpoint.beforePasskey });
      return endpoint.method === 'GET' ? [guard] : [guard, hooks.writeLimit];
    }
  }
}

/**
 * Registers `endpoint` on `scope`: its method, path and schemas (validated on the way in,
 * serialised on the way out by the zod type provider), its success status, the guard its
 * `access` names, and the endpoint itself in the route's config. The one way a route is added.
 */
export function endpointRoute<E extends Endpoint>(
  scope: FastifyInstance,
  endpoint: E,
  handler: EndpointHandler<E>,
  extras: RouteExtras = {},
): void {
  const status = endpoint.status ?? 200;
  const { onRequest, ...rest } = extras;
  const guards = [...accessGuards(scope, endpoint), ...[onRequest ?? []].flat()];
  scope.route({
    method: endpoint.method,
    url: endpoint.path,
    schema: {
      ...(endpoint.params && { params: endpoint.params }),
      ...(endpoint.query && { querystring: endpoint.query }),
      ...(endpoint.body && { body: endpoint.body }),
      response: { [status]: endpoint.response },
      // Read by the OpenAPI document only: a string answered as text is never serialised.
      ...(endpoint.produces && { produces: [endpoint.produces] }),
    },
    config: { endpoint },
    ...(guards.length > 0 && { onRequest: guards }),
    ...rest,
    handler: (status === 200
      ? handler
      : (request: EndpointRequest<E>, reply: FastifyReply) =>
          handler(request, reply.code(status))) as unknown as RouteHandlerMethod,
  });
}
