import type { FastifyPluginAsync } from 'fastify';
import { liveEventsEndpoint } from '#shared/api/live-endpoint.ts';
import { clientNetwork } from '../http/client-network.ts';
import { endpointRoute } from '../http/endpoint-route.ts';
import { HttpError } from '../http-error.ts';

/**
 * `GET /api/events` (docs/decisions/021): a thin handler over Fastify's own reply (a stream sent
 * as the body), so the security headers, request ids and logs apply as to any route. In the
 * public scope: no cookie is read, nothing per member is sent.
 */
export const liveRoutes: FastifyPluginAsync = async (app) => {
  endpointRoute(app, liveEventsEndpoint, async (request, reply) => {
    const header = request.headers['last-event-id'];
    const fromHeader =
      typeof header === 'string' && /^\d{1,16}$/.test(header) ? Number(header) : undefined;
    const opened = app.deps.live.open(
      clientNetwork(request),
      fromHeader ?? request.query.lastEventId,
    );
    if (!opened.ok) {
      if (opened.reason === 'network') {
        throw new HttpError(
          429,
          'Your network holds all the live streams this server gives one network. Close a tab or two and reload.',
          'TOO_MANY_STREAMS',
          { 'retry-after': '30' },
        );
      }
      throw new HttpError(503, 'This server holds all the live streams it can.', 'UNAVAILABLE', {
        'retry-after': '5',
      });
    }
    // A stream the hub drops (a slow reader) takes its connection with it; one that ends
    // (SIGTERM) finishes its answer first.
    opened.stream.once('close', () => {
      if (!opened.stream.readableEnded) reply.raw.destroy();
    });
    return (
      reply
        .header('content-type', 'text/event-stream; charset=utf-8')
        .header('cache-control', 'no-cache, no-transform')
        // nginx buffers proxied answers unless told not to (docs/deployment.md).
        .header('x-accel-buffering', 'no')
        .send(opened.stream)
    );
  });
};
