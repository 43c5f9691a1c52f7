import type { FastifyPluginAsync } from 'fastify';
import { burnsEndpoint, recordBurnEndpoint } from '#shared/api/chain.ts';
import type { SiteConfig } from '#shared/site.ts';
import { endpointRoute } from '../http/endpoint-route.ts';
import { consoleOperator } from '../prize/payment-routes.ts';
import { chainRpcFor } from '../prize/payments.ts';
import { burnStates, listBurns, recordBurn } from './service.ts';

/** The burn panel's read: public, verified burns only. */
export const burnReadRoutes: FastifyPluginAsync<{ site: SiteConfig }> = async (app, { site }) => {
  app.deps.metrics.readers.burns = () => burnStates(app.deps.db);
  endpointRoute(app, burnsEndpoint, async (_request, reply) => {
    reply.header('cache-control', 'no-cache');
    return listBurns(app.deps.db, site);
  });
};

/**
 * The console's burn recording (an admin's endpoint: endpointRoute installs the console's guard
 * and write limit), on the operator log under the operator who recorded it; registered in the
 * console's scope.
 */
export const burnAdminRoutes: FastifyPluginAsync<{ site: SiteConfig }> = async (app, { site }) => {
  const rpc = chainRpcFor(app.deps.config, app.deps.tracing);
  endpointRoute(app, recordBurnEndpoint, async (request) =>
    recordBurn(
      { db: app.deps.db, site, rpc, clock: app.deps.clock, operator: consoleOperator(request) },
      request.body.signature,
    ),
  );
};
