import { sitePaths } from '#shared/api/paths.ts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { serverTimeResponseSchema } from '#shared/api/site.ts';
import { noStore } from '../http/no-store.ts';

export const siteRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    sitePaths.time,
    { preHandler: noStore, schema: { response: { 200: serverTimeResponseSchema } } },
    async () => ({ now: app.deps.clock.now() }),
  );
};
