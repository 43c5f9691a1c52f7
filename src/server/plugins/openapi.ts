import fastifySwagger, { type SwaggerTransform } from '@fastify/swagger';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Access, Endpoint } from '#shared/api/endpoint.ts';
import { declaredErrors } from '#shared/api/endpoint.ts';
import { apiErrorSchema } from '#shared/api/errors.ts';
import { SESSION_COOKIE } from '../security/sessions.ts';

const STATUS_TEXT: Record<number, string> = {
  400: 'Bad request',
  401: 'Not signed in',
  403: 'Forbidden',
  404: 'Not found',
  409: 'Conflict',
  413: 'Too large',
  415: 'Unsupported media type',
  422: 'Rejected',
  429: 'Too many requests',
  503: 'Unavailable: try again later',
};

/**
 * Every refusal's body, `{ message, code }` with the code one of ERROR_CODES: written once under
 * `components` and referred to by each of the thousand or so refusals (inlined, its list of codes
 * made the document 1.2 MB).
 */
const { $schema: _dialect, ...apiErrorJsonSchema } = z.toJSONSchema(apiErrorSchema, {
  target: 'draft-2020-12',
}) as Record<string, unknown>;
const errorBody = { 'application/json': { schema: { $ref: '#/components/schemas/ApiError' } } };

const SECURITY: Record<Access, Record<string, string[]>[] | undefined> = {
  public: [{}],
  visitor: [{}, { session: [] }],
  member: [{ session: [] }],
  moderator: [{ session: [] }],
  admin: [{ session: [] }],
};

/**
 * The route's schemas from the zod type provider, and from its endpoint (shared/api/endpoint.ts)
 * everything else a client author reads: summary, operationId, tag, who may call it, and each
 * refusal with its codes.
 */
const endpointTransform: SwaggerTransform = (document) => {
  const transformed = jsonSchemaTransform(document as Parameters<typeof jsonSchemaTransform>[0]);
  const endpoint: Endpoint | undefined = document.route.config?.endpoint;
  if (!endpoint) return transformed;
  const errors = declaredErrors(endpoint);
  const response = { ...(transformed.schema.response as Record<string, unknown>) };
  for (const [status, codes] of Object.entries(errors)) {
    response[status] = {
      description: `${STATUS_TEXT[Number(status)] ?? 'Error'}: ${codes.join(', ')}`,
      content: errorBody,
    };
  }
  return {
    // A trailing wildcard is a named parameter to OpenAPI (`{path}`), not `{*}`.
    url: transformed.url.replace(/\*$/, ':path'),
    schema: {
      ...transformed.schema,
      ...(transformed.schema.params ? { params: wildcardNamed(transformed.schema.params) } : {}),
      summary: endpoint.summary,
      operationId: endpoint.id,
      tags: [endpoint.tag],
      security: SECURITY[endpoint.access],
      response,
    },
  };
};

/** A params schema whose `*` property (a trailing wildcard) is named `path`. */
function wildcardNamed(params: unknown): unknown {
  const schema = params as { properties?: Record<string, unknown>; required?: string[] };
  if (!schema.properties?.['*']) return params;
  const { '*': wildcard, ...rest } = schema.properties;
  return {
    ...schema,
    properties: { ...rest, path: wildcard },
    required: schema.required?.map((name) => (name === '*' ? 'path' : name)),
  };
}

/**
 * The API's OpenAPI document, generated from the endpoints (src/shared/api) and served at
 * /api/openapi.json. Registered before the routes it describes.
 */
export const openApi = fp(
  async (app: FastifyInstance) => {
    await app.register(fastifySwagger, {
      openapi: {
        openapi: '3.1.0',
        info: {
          title: 'Daily Grind API',
          version: '1',
          description:
            'The API of the Daily Grind site. Writes need the `X-CSRF-Token` header from ' +
            '`GET /api/csrf-token` unless stated; every error answers `{ message, code }`.',
          license: { name: 'Proprietary', identifier: 'LicenseRef-Proprietary' },
        },
        servers: [{ url: '/' }],
        components: {
          // zod's JSON Schema type is not the OpenAPI one's; the object is plain JSON Schema.
          schemas: { ApiError: apiErrorJsonSchema as object },
          securitySchemes: {
            session: { type: 'apiKey', in: 'cookie', name: SESSION_COOKIE },
          },
        },
      },
      transform: endpointTransform,
      // Only the API is described: its endpoints are tagged (endpointTransform), while pages
      // (`/memes/:id`, `/u/:username`, `/admin`), files and probes have no tag.
      hideUntagged: true,
    });
    // The document is the same until the next start: serialized once, at the first request (every
    // route is registered by then), not on each.
    let document: string | undefined;
    app.get('/api/openapi.json', { schema: { hide: true } }, async (_request, reply) => {
      document ??= JSON.stringify(app.swagger());
      return reply
        .header('cache-control', 'no-cache')
        .type('application/json; charset=utf-8')
        .send(document);
    });
  },
  { name: 'openapi' },
);
