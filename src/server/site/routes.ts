import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { serverTimeEndpoint } from '#shared/api/site.ts';
import { endpointRoute } from '../http/endpoint-route.ts';
import { noStore } from '../http/no-store.ts';

export const siteRoutes: FastifyPluginAsyncZod = async (app) => {
  endpointRoute(app, serverTimeEndpoint, async () => ({ now: app.deps.clock.now() }), {
    preHandler: noStore,
  });
};
