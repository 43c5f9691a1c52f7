import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { sql } from 'kysely';

/**
 * `/healthz` (the process answers) and `/readyz` (it can serve: not draining, database and object
 * store reachable). While the app closes it drains: each answer closes its keep-alive connection,
 * so the server can finish closing and a proxy or client learns not to send its next request on
 * it (closing idle connections instead would race with a request already on its way).
 */
export const health = fp(
  async (app: FastifyInstance) => {
    let draining = false;
    app.addHook('preClose', async () => {
      draining = true;
    });
    app.addHook('onSend', (_request, reply, payload, done) => {
      if (draining) reply.header('connection', 'close');
      done(null, payload);
    });

    app.get('/healthz', async () => ({ status: 'ok' }));
    app.get('/readyz', async (_request, reply) => {
      if (draining) return reply.code(503).send({ status: 'draining' });
      try {
        await sql`select 1`.execute(app.deps.db);
      } catch {
        return reply.code(503).send({ status: 'database unavailable' });
      }
      try {
        await app.deps.objectStore?.check();
      } catch {
        return reply.code(503).send({ status: 'object store unavailable' });
      }
      // Redis down costs no request (the SQL counters stand in), so the node stays in service.
      if (app.deps.rateLimiter.usingFallback?.()) {
        return {
          status: 'ready',
          degraded: ['rate limits counted in the database: Redis unavailable'],
        };
      }
      return { status: 'ready' };
    });
  },
  { name: 'health', dependencies: ['database'] },
);
