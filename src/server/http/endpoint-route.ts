import type {
  FastifyInstance,
  FastifyReply,
  FastifyRequest,
  onRequestHookHandler,
  preHandlerHookHandler,
  RouteHandlerMethod,
} from 'fastify';
import type {
  Endpoint,
  EndpointBody,
  EndpointParams,
  EndpointQuery,
  EndpointResponse,
} from '#shared/api/endpoint.ts';

export type EndpointRequest<E extends Endpoint> = FastifyRequest<{
  Params: EndpointParams<E>;
  Querystring: EndpointQuery<E>;
  Body: EndpointBody<E>;
}>;

/** A handler answers the endpoint's response body, or sends its own answer through `reply`. */
export type EndpointHandler<E extends Endpoint> = (
  request: EndpointRequest<E>,
  reply: FastifyReply,
) => Promise<EndpointResponse<E> | FastifyReply>;

/** What a route adds to its endpoint: guards that run before the body is read, a body limit. */
export interface RouteExtras {
  onRequest?: onRequestHookHandler | onRequestHookHandler[];
  preHandler?: preHandlerHookHandler | preHandlerHookHandler[];
  bodyLimit?: number;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The endpoint a route was registered from: CSRF exemption and OpenAPI read it. */
    endpoint?: Endpoint;
  }
}

/**
 * Registers `endpoint` on `scope`: its method, path and schemas (validated on the way in,
 * serialised on the way out by the zod type provider), its success status, and the endpoint
 * itself in the route's config. The one way a route is added.
 */
export function endpointRoute<E extends Endpoint>(
  scope: FastifyInstance,
  endpoint: E,
  handler: EndpointHandler<E>,
  extras: RouteExtras = {},
): void {
  const status = endpoint.status ?? 200;
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
    ...extras,
    handler: (status === 200
      ? handler
      : (request: EndpointRequest<E>, reply: FastifyReply) =>
          handler(request, reply.code(status))) as unknown as RouteHandlerMethod,
  });
}
