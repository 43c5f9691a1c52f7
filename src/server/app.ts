import Fastify, { type FastifyInstance, type FastifyRequest } from 'fastify';
import {
  serializerCompiler,
  validatorCompiler,
  type ZodTypeProvider,
} from 'fastify-type-provider-zod';
import { sql } from 'kysely';
import { authRoutes } from './auth/routes.ts';
import { systemClock, type Clock } from './clock.ts';
import type { AppConfig } from './config.ts';
import { createDatabase } from './db/create-database.ts';
import { migrateToLatest } from './db/migrate.ts';
import type { AppDeps } from './deps.ts';
import { createStandingsCache, gameRoutes, standingsRoutes } from './game/routes.ts';
import { errorHandler } from './http/error-handler.ts';
import { HttpError } from './http-error.ts';
import { securityHeaders } from './http/security-headers.ts';
import { RequestLog } from './http/request-log.ts';
import { requestIdGenerator } from './http/request-id.ts';
import { registerStaticClient } from './http/static-client.ts';
import { shopRoutes } from './shop/routes.ts';
import { renderIndexHtml } from './site/index-html.ts';
import { loadSiteConfig } from './site/load-site-config.ts';
import { siteRoutes } from './site/routes.ts';
import { createSqlRateLimiter, pruneRateLimits } from './security/rate-limit.ts';
import { createRedisRateLimiter } from './security/redis-rate-limit.ts';
import { loadOrCreateSecret } from './security/secrets.ts';
import { pruneSessions } from './security/sessions.ts';
import { allowReadsOnly, enableSessions } from './security/session-scope.ts';
import { createObjectStore } from './storage/create-object-store.ts';
import { s3UploadOrigin } from './storage/s3.ts';
import { memeRoutes } from './memes/routes.ts';
import { objectRoutes, uploadRoutes } from './uploads/routes.ts';

export interface BuildOptions {
  clock?: Clock;
  /** pino options, or false for silence (tests). */
  logger?: boolean | Record<string, unknown>;
}

const MAINTENANCE_INTERVAL_MS = 10 * 60 * 1000;
export const REQUEST_TIMEOUT_MS = 2 * 60 * 1000;
const CHART_FRAME_ORIGIN = 'https://dexscreener.com';

export async function buildApp(
  config: AppConfig,
  options: BuildOptions = {},
): Promise<FastifyInstance> {
  const requestId = requestIdGenerator(config.trustProxy);
  const app = Fastify({
    logger:
      options.logger === false
        ? false
        : {
            level: config.logLevel,
            serializers: {
              // Upload URLs carry a signed one-time token: a credential, so it stays out of the logs.
              req: (req: FastifyRequest) => ({
                method: req.method,
                url: req.url.replace(/^\/api\/uploads\/[^/?]+/, '/api/uploads/[token]'),
                remoteAddress: req.ip,
              }),
            },
            ...(typeof options.logger === 'object' ? options.logger : {}),
          },
    logController: new RequestLog(),
    trustProxy: config.trustProxy,
    genReqId: requestId,
    bodyLimit: 64 * 1024,
    // Fastify leaves this off; without it a body that never finishes holds its connection forever.
    // Two minutes carry a 5 MB image at 45 KB/s (docs/deployment.md).
    requestTimeout: REQUEST_TIMEOUT_MS,
  }).withTypeProvider<ZodTypeProvider>();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  app.setErrorHandler(errorHandler);

  const clock = options.clock ?? systemClock;
  // Before the database opens, so a bad SITE_CONFIG stops start-up with nothing to clean up.
  const site = loadSiteConfig(config.siteConfigFile);
  const db = createDatabase(config.database);
  try {
    await migrateToLatest(db);
  } catch (error) {
    await db.destroy();
    throw error;
  }
  const secret = loadOrCreateSecret(config.sessionSecret, config.dataDir);
  const deps: AppDeps = {
    config,
    db,
    clock,
    secret,
    rateLimiter: config.redisUrl
      ? createRedisRateLimiter(config.redisUrl)
      : createSqlRateLimiter(db, clock),
    objectStore: createObjectStore(config, secret, clock),
  };
  app.decorate('deps', deps);
  app.decorateRequest('user', null);
  app.decorateRequest('sessionIdHash', null);

  let draining = false;
  const maintenance = setInterval(() => {
    const now = clock.now();
    Promise.all([pruneSessions(db, now), pruneRateLimits(db, now - 24 * 60 * 60 * 1000)]).catch(
      (err: unknown) => app.log.warn({ err }, 'maintenance failed'),
    );
  }, MAINTENANCE_INTERVAL_MS);
  maintenance.unref();
  app.addHook('preClose', async () => {
    draining = true;
    clearInterval(maintenance);
  });
  // While draining, each answer closes its keep-alive connection, so the server can finish
  // closing and a proxy or client learns not to send its next request on it (closing idle
  // connections instead would race with a request already on its way).
  app.addHook('onSend', (_request, reply, payload, done) => {
    if (draining) reply.header('connection', 'close');
    done(null, payload);
  });
  app.addHook('onClose', async () => {
    await deps.rateLimiter.close();
    await deps.objectStore?.close?.();
    await db.destroy();
  });

  const headers = securityHeaders({
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        // Radix's scroll lock injects a <style> element.
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:', 'blob:'],
        fontSrc: ["'self'"],
        // The browser PUTs uploads straight to the bucket when images live in S3.
        connectSrc: ["'self'", ...(config.s3 ? [s3UploadOrigin(config.s3)] : [])],
        frameSrc: [CHART_FRAME_ORIGIN],
        objectSrc: ["'none'"],
        baseUri: ["'self'"],
        formAction: ["'self'"],
        frameAncestors: ["'none'"],
        manifestSrc: ["'self'"],
      },
    },
    crossOriginEmbedderPolicy: false,
    strictTransportSecurity: config.publicOrigin?.startsWith('https:') ? undefined : false,
  });

  // Callback-style: an async hook costs every request a promise.
  app.addHook('onRequest', (request, reply, done) => {
    const api = request.url.startsWith('/api/');
    reply.headers(api ? headers.api : headers.page);
    reply.header('x-request-id', request.id);
    // Only proxies are sent absolute-form targets ("POST http://host/api/..."); Fastify routes
    // one by its path, so it would reach an API route past the CSRF check, which goes by the URL.
    if (!api && !request.url.startsWith('/')) {
      return done(new HttpError(400, 'The request target must be a path', 'BAD_REQUEST'));
    }
    done();
  });

  app.get('/healthz', async () => ({ status: 'ok' }));
  app.get('/readyz', async (_request, reply) => {
    if (draining) return reply.code(503).send({ status: 'draining' });
    try {
      await sql`select 1`.execute(db);
    } catch {
      return reply.code(503).send({ status: 'database unavailable' });
    }
    try {
      await deps.objectStore?.check();
    } catch {
      return reply.code(503).send({ status: 'object store unavailable' });
    }
    return { status: 'ready' };
  });

  const standings = createStandingsCache(clock);
  // Reads that are the same for everybody: no cookie is parsed and no session looked up for them
  // (a member's leaderboard read was a session query), so they can change nothing.
  await app.register(async (publicReads) => {
    allowReadsOnly(publicReads);
    await publicReads.register(siteRoutes);
    await publicReads.register(standingsRoutes, { standings });
    await publicReads.register(objectRoutes);
  });
  // What acts for a visitor or a member: cookies, the session, and the origin and CSRF checks.
  await app.register(async (sessionScope) => {
    await enableSessions(sessionScope);
    await sessionScope.register(authRoutes);
    await sessionScope.register(shopRoutes);
    await sessionScope.register(gameRoutes, { standings });
    await sessionScope.register(uploadRoutes);
    await sessionScope.register(memeRoutes);
  });
  await registerStaticClient(app, config.clientDistDir, (html) =>
    renderIndexHtml(html, site, config.publicOrigin),
  );
  return app;
}
