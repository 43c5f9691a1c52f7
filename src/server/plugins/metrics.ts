import { createHash, timingSafeEqual } from 'node:crypto';
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { Registry } from 'prom-client';
import { poolFigures } from '../db/create-database.ts';
import { HttpError } from '../http-error.ts';

const STATUS_CLASSES = ['1xx', '2xx', '3xx', '4xx', '5xx'];

/**
 * What /metrics exports (metrics/metrics.ts), wired to the app: the request histogram, the
 * figures read at scrape time, and `GET /metrics` on the main port for a caller with
 * METRICS_TOKEN. With neither METRICS_PORT nor METRICS_TOKEN nobody can read the figures, so no
 * request is timed and the process is not sampled; the counters the domains feed stay (an `inc`).
 */
export const metrics = fp(
  async (app: FastifyInstance) => {
    const { deps } = app;
    const { config, live, db } = deps;
    const { readers, requestDuration, registry } = deps.metrics;
    readers.live = () => ({ open: live.streamCount, dropped: live.stats.dropped });
    const pool = poolFigures(db);
    if (pool) deps.metrics.watchPool(() => poolFigures(db) ?? pool);

    const { port, token } = config.metrics;
    if (port === undefined && token === undefined) return;
    deps.metrics.watchProcess();
    // The route's pattern (`/api/memes/:id`), never the path: ids and names stay out of labels.
    // One observe per answer; everything else waits for the scrape.
    app.addHook('onResponse', (request, reply, done) => {
      requestDuration.observe(
        {
          route: request.routeOptions.url ?? 'unmatched',
          method: request.method,
          status_class: STATUS_CLASSES[Math.floor(reply.statusCode / 100) - 1] ?? 'other',
        },
        reply.elapsedTime / 1000,
      );
      done();
    });

    if (token === undefined) return;
    const expected = digest(token);
    app.get('/metrics', { schema: { hide: true } }, async (request, reply) => {
      requireToken(request, expected);
      return scrape(registry, reply);
    });
  },
  { name: 'metrics', dependencies: ['database'] },
);

export interface MetricsServer {
  /** `http://<host>:<port>` */
  readonly origin: string;
  close(): Promise<void>;
}

/**
 * `GET /metrics` on METRICS_PORT, a listener of its own on METRICS_HOST (127.0.0.1 unless set):
 * private by where it listens, so it asks for no token. Undefined without METRICS_PORT. Started
 * by main.ts beside the app's own port (a test calls it the same way).
 */
export async function listenForMetrics(app: FastifyInstance): Promise<MetricsServer | undefined> {
  const { port, host } = app.deps.config.metrics;
  if (port === undefined) return undefined;
  const { registry } = app.deps.metrics;
  const server = Fastify({ logger: false });
  server.get('/metrics', (_request, reply) => scrape(registry, reply));
  const origin = await server.listen({ port, host });
  return { origin, close: () => server.close() };
}

/** The registry's figures as Prometheus text, never cached. */
async function scrape(registry: Registry, reply: FastifyReply) {
  return reply
    .header('content-type', registry.contentType)
    .header('cache-control', 'no-store')
    .send(await registry.metrics());
}

const digest = (text: string) => createHash('sha256').update(text).digest();

/** The bearer token, compared in constant time (digests of equal length whatever was sent). */
function requireToken(request: FastifyRequest, expected: Buffer): void {
  const sent = /^Bearer +(\S+)$/i.exec(request.headers.authorization ?? '')?.[1] ?? '';
  if (!timingSafeEqual(digest(sent), expected)) {
    throw new HttpError(401, 'The metrics need the bearer token (METRICS_TOKEN).', 'UNAUTHORIZED', {
      'www-authenticate': 'Bearer realm="metrics"',
    });
  }
}
