import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Clock } from '../clock.ts';
import type { AppConfig } from '../config.ts';
import { openMigratedDatabase } from '../db/migrate.ts';
import type { AppDeps, CachedSession } from '../deps.ts';
import { ReadCache } from '../http/read-cache.ts';
import { createLiveTransport } from '../live/bus.ts';
import { LiveHub } from '../live/hub.ts';
import { attachLivePublisher } from '../live/record.ts';
import { createMetrics } from '../metrics/metrics.ts';
import { countingRefusals, createSqlRateLimiter } from '../security/rate-limit.ts';
import { createRedisRateLimiter } from '../security/redis-rate-limit.ts';
import { loadOrCreateSecret } from '../security/secrets.ts';
import { createObjectStore } from '../storage/create-object-store.ts';
import type { ObjectStore } from '../storage/object-store.ts';
import { traced, type Tracing } from '../tracing/tracing.ts';

/** The object store's calls that reach the disk or the bucket, each a span when tracing. */
const OBJECT_STORE_CALLS = [
  'createUploadTarget',
  'readObject',
  'getObjectBuffer',
  'putObject',
  'deleteObject',
  'check',
] as const satisfies readonly (keyof ObjectStore)[];

/**
 * The database (migrated to the latest schema before anything is served), the shared secret,
 * the rate limiter and the object store, as `app.deps`; all closed with the app.
 */
export const database = fp(
  async (
    app: FastifyInstance,
    { config, clock, tracing }: { config: AppConfig; clock: Clock; tracing?: Tracing },
  ) => {
    const db = await openMigratedDatabase(config.database, {
      requireAppRole: config.env === 'production',
      log: tracing?.sqlLog(config.database.kind === 'postgres' ? 'postgresql' : 'sqlite'),
    });
    const secret = loadOrCreateSecret(config.sessionSecret, config.dataDir);
    const metrics = createMetrics();
    const rateLimiter = config.redisUrl
      ? createRedisRateLimiter(config.redisUrl, createSqlRateLimiter(db, clock))
      : createSqlRateLimiter(db, clock);
    const objectStore = createObjectStore(config, secret, clock);
    const deps: AppDeps = {
      config,
      db,
      clock,
      secret,
      rateLimiter: countingRefusals(rateLimiter, (limit) => metrics.rateLimitRefusals.inc(limit)),
      objectStore: traced(tracing, 'object-store', objectStore, OBJECT_STORE_CALLS, {
        'object_store.kind': objectStore.kind,
      }),
      sessions: new ReadCache<CachedSession>({ clock, max: 10_000 }),
      live: new LiveHub(createLiveTransport(config, db, secret, clock), clock, app.log, {
        heartbeatMs: config.live.heartbeatMs,
      }),
      metrics,
      tracing,
    };
    attachLivePublisher(db, deps.live);
    app.decorate('deps', deps);
    app.decorateRequest('user', null);
    app.decorateRequest('sessionIdHash', null);
    // Streams never end by themselves: they are ended before the server waits for its
    // connections to finish, so SIGTERM sends their clients to another node at once.
    app.addHook('preClose', async () => deps.live.endStreams());
    app.addHook('onClose', async () => {
      await deps.live.close();
      await deps.rateLimiter.close();
      await deps.objectStore?.close?.();
      await db.destroy();
    });
  },
  { name: 'database' },
);
