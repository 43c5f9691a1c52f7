import { sitePaths } from '#shared/api/paths.ts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { serverTimeResponseSchema } from '#shared/api/site.ts';

export const siteRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    sitePaths.time,
    { schema: { response: { 200: serverTimeResponseSchema } } },
    async (_request, reply) => {
      reply.header('cache-control', 'no-store');
      return { now: app.deps.clock.now() };
    },
  );
};
