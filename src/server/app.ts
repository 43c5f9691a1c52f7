import Fastify, {
  type FastifyInstance,
  type FastifyRequest,
  type FastifyServerOptions,
} from 'fastify';
import { serializerCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { authRoutes } from './auth/routes.ts';
import { textValidatorCompiler } from './http/text-validator.ts';
import { systemClock, type Clock } from './clock.ts';
import type { AppConfig, TrustProxy } from './config.ts';
import { createStandingsCache, gameRoutes, standingsRoutes } from './game/routes.ts';
import { adminPageRoute } from './console/page-route.ts';
import { consoleAccess } from './console/guard.ts';
import { appealRoutes } from './suspensions/routes.ts';
import { consoleRoutes } from './console/routes.ts';
import { refuseSuspended } from './suspensions/suspensions.ts';
import { errorHandler } from './http/error-handler.ts';
import { liveRoutes } from './live/routes.ts';
import { noStore } from './http/no-store.ts';
import { refuseUnknownProtocol } from './http/forwarded-proto.ts';
import { RequestLog, urlWithoutCredentials } from './http/request-log.ts';
import { requestIdGenerator } from './http/request-id.ts';
import { registerStaticClient } from './http/static-client.ts';
import { memePageRoute } from './memes/page-route.ts';
import { memberPageRoute } from './members/page-route.ts';
import { accountRoutes, memberReadRoutes } from './members/routes.ts';
import { recheckDueWallets, refuseUnlessHolder, type HolderContext } from './holders/service.ts';
import { supplyRoutes } from './supply/routes.ts';
import { createSupplyReader } from './supply/service.ts';
import { pruneSignInNonces } from './wallet/repository.ts';
import { memeRoutes } from './memes/routes.ts';
import { database } from './plugins/database.ts';
import { health } from './plugins/health.ts';
import { maintenance } from './plugins/maintenance.ts';
import { metrics } from './plugins/metrics.ts';
import { openApi } from './plugins/openapi.ts';
import { securityHeaders } from './plugins/security-headers.ts';
import { burnAdminRoutes, burnReadRoutes } from './burns/routes.ts';
import { chainRpcFor, finishPendingPayments, paymentContext } from './prize/payments.ts';
import { prizePaymentRoutes } from './prize/payment-routes.ts';
import { openApproval } from './prize/repository.ts';
import { prizeRoutes } from './prize/routes.ts';
import { pruneRateLimits } from './security/rate-limit.ts';
import { allowReadsOnly, enableSessions } from './security/session-scope.ts';
import { pruneSessions } from './security/sessions.ts';
import { shopRoutes } from './shop/routes.ts';
import { loadSiteConfig } from './site/load-site-config.ts';
import { siteRoutes } from './site/routes.ts';
import { startTracing } from './tracing/tracing.ts';
import { objectRoutes, uploadRoutes } from './uploads/routes.ts';
import { walletRoutes } from './wallet/routes.ts';
import { alertSender } from './alerts/plugin.ts';
import { raidCheck } from './raid/guard.ts';
import { raidMode } from './raid/plugin.ts';
import { raidConsoleRoutes, raidPublicRoutes, raidSessionRoutes } from './raid/routes.ts';

export interface BuildOptions {
  clock?: Clock;
  /** pino options, or false for silence (tests). */
  logger?: boolean | Record<string, unknown>;
}

export const REQUEST_TIMEOUT_MS = 2 * 60 * 1000;
const RATE_LIMIT_KEEP_MS = 24 * 60 * 60 * 1000;

/** The whole site as one Fastify app: each part a named plugin, registered in this order. */
export async function buildApp(
  config: AppConfig,
  options: BuildOptions = {},
): Promise<FastifyInstance> {
  const clock = options.clock ?? systemClock;
  // Before the database opens, so a bad SITE_CONFIG stops start-up with nothing to clean up.
  const site = loadSiteConfig(config.siteConfigFile, config.solana);
  const app = Fastify(serverOptions(config, options)).withTypeProvider<ZodTypeProvider>();
  app.setValidatorCompiler(textValidatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  app.setErrorHandler(errorHandler);
  // First, so each request's span starts before any other hook; loaded only when configured.
  const tracing = await startTracing(config.tracing);
  if (tracing) await app.register(tracing.plugin);
  app.addHook('onRequest', refuseUnknownProtocol);
  // Every API route is one endpoint object (src/shared/api, decision 024): a route registered
  // without one would be missing from the OpenAPI document, the typed client and the CSRF rule.
  app.addHook('onRoute', (route) => {
    if (!route.url.startsWith('/api/') || route.url === '/api/openapi.json') return;
    if (!route.config?.endpoint) {
      throw new Error(
        `${String(route.method)} ${route.url} has no endpoint object (src/shared/api)`,
      );
    }
  });

  await app.register(database, { config, clock, tracing });
  await app.register(metrics);
  await app.register(maintenance);
  app.maintenance.add('sessions', (now) => pruneSessions(app.deps.db, now));
  app.maintenance.add('rate limits', (now) =>
    pruneRateLimits(app.deps.db, now - RATE_LIMIT_KEEP_MS),
  );
  // A prepared prize payment is looked for again until it is paid or expires (a restart included).
  const payments = paymentContext(config, { db: app.deps.db, site, clock });
  app.maintenance.add('prize payments', () => finishPendingPayments(payments));
  // Holders' wallets read again about every six hours, a few each run (decision 029).
  const holders: HolderContext = { db: app.deps.db, clock, site, rpc: chainRpcFor(config) };
  app.maintenance.add('holder balances', () => recheckDueWallets(holders));
  app.maintenance.add('wallet sign-in messages', (now) =>
    pruneSignInNonces(app.deps.db, now - RATE_LIMIT_KEEP_MS),
  );
  // Raid day (decision 027): the raid switch and its trigger, the moderators' alerts.
  await app.register(raidMode);
  await alertSender(app);
  await app.register(securityHeaders, { config });
  await app.register(health);
  await app.register(openApi);

  const standings = createStandingsCache(clock);
  // A score on another node: this node's board is read again (pages refetch on the event).
  app.deps.live.onEvent((event) => {
    if (event.type === 'leaderboard') standings.clear();
  });
  // Reads that are the same for everybody: no cookie is parsed and no session looked up for them
  // (a member's leaderboard read was a session query), so they can change nothing.
  await app.register(async function publicReads(scope) {
    allowReadsOnly(scope);
    await scope.register(siteRoutes);
    await scope.register(standingsRoutes, { standings });
    await scope.register(objectRoutes);
    await scope.register(prizeRoutes, { site });
    await scope.register(liveRoutes);
    await scope.register(burnReadRoutes, { site });
    await scope.register(raidPublicRoutes);
    await scope.register(memberReadRoutes, { site });
    await scope.register(supplyRoutes, {
      supply: createSupplyReader({ rpc: holders.rpc, site, clock }),
    });
  });
  // What acts for a visitor or a member: cookies, the session, and the origin and CSRF checks.
  await app.register(async function sessionRoutes(scope) {
    await enableSessions(scope);
    // Before a write's own guards, the refusals its endpoint names for the caller's standing
    // (`refuses`): a suspended member's uploads, posts, votes, reports, scores and purchases
    // (decision 022); in raid mode, a new account's gallery writes and appeals and a visitor's vote
    // (decision 027). Put on each such route at registration: other routes pay nothing for them.
    scope.addHook('onRoute', (route) => {
      const refuses = route.config?.endpoint?.refuses;
      if (!refuses) return;
      const checks = [
        ...(refuses.suspended ? [refuseSuspended] : []),
        ...(refuses.raid ? [raidCheck(refuses.raid)] : []),
      ];
      route.onRequest = [...checks, ...[route.onRequest ?? []].flat()];
    });
    await scope.register(raidSessionRoutes);
    await scope.register(authRoutes);
    // The holders' row: holders' rule, shop's route (as a wallet change takes prize's rule).
    await scope.register(shopRoutes, {
      holders: (db, userId, name) => refuseUnlessHolder(db, site, userId, name),
    });
    await scope.register(accountRoutes, { site, holders });
    await scope.register(gameRoutes, { standings });
    await scope.register(uploadRoutes);
    await scope.register(memeRoutes);
    // A wallet stays put while a prize is on its way to it: prize's rule, wallet's route.
    await scope.register(walletRoutes, { pendingPrize: openApproval });
    await scope.register(appealRoutes);
    // The operator console's API: never stored, refusals included.
    await scope.register(async (admin) => {
      admin.addHook('onRequest', noStore);
      // The guard and write limit endpointRoute installs on a moderator's or an admin's endpoint.
      admin.decorate('consoleAccess', consoleAccess);
      await admin.register(consoleRoutes, { site });
      await admin.register(raidConsoleRoutes);
      // Payments and burns verified on chain (decision 023): admins with a fresh passkey.
      await admin.register(prizePaymentRoutes, { site });
      await admin.register(burnAdminRoutes, { site });
    });
  });
  const pages = await registerStaticClient(app, config.clientDistDir, {
    site,
    publicOrigin: config.publicOrigin,
    now: clock.now(),
  });
  if (pages) await app.register(memePageRoute(pages, site, config.publicOrigin));
  if (pages) await app.register(memberPageRoute(pages, site, config.publicOrigin));
  const consolePage = pages && adminPageRoute(pages, config.clientDistDir!);
  if (consolePage) await app.register(consolePage);
  return app;
}

function serverOptions(config: AppConfig, options: BuildOptions): FastifyServerOptions {
  return {
    logger:
      options.logger === false
        ? false
        : {
            level: config.logLevel,
            serializers: {
              req: (req: FastifyRequest) => ({
                method: req.method,
                url: urlWithoutCredentials(req.url),
                remoteAddress: req.ip,
              }),
            },
            ...(typeof options.logger === 'object' ? options.logger : {}),
          },
    logController: new RequestLog(),
    trustProxy: fastifyTrustProxy(config.trustProxy),
    genReqId: requestIdGenerator(config.trustProxy !== false),
    bodyLimit: 64 * 1024,
    // Fastify leaves this off; without it a body that never finishes holds its connection forever.
    // Two minutes carry a 5 MB image at 45 KB/s (docs/deployment.md).
    requestTimeout: REQUEST_TIMEOUT_MS,
    // The database plugin migrates before anything is served, and a node starting beside another
    // waits for that node's migration: Fastify's 10 s default stopped such a node on a busy
    // machine ("Plugin did not start in time: 'database'"). Every wait inside has its own bound.
    pluginTimeout: 120_000,
  };
}

/**
 * Fastify's own hop-count option trusts nobody (it cannot tell a proxy from a client), so a hop
 * count is given as proxy-addr's trust function: the socket's peer and the nearest hops-1
 * entries of X-Forwarded-For are proxies, the next one to the left is the client.
 */
function fastifyTrustProxy(
  trust: TrustProxy,
): false | string[] | ((address: string, hop: number) => boolean) {
  if (typeof trust !== 'number') return trust;
  return (_address, hop) => hop < trust;
}
