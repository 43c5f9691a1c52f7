import type { FastifyPluginAsync, FastifyReply } from 'fastify';
import { circulatingSupplyEndpoint, totalSupplyEndpoint } from '#shared/api/supply.ts';
import { endpointRoute } from '../http/endpoint-route.ts';
import { SUPPLY_FRESH_MS, type SupplyFigure, type SupplyReader } from './service.ts';

/**
 * A figure as text with how long anything between may keep it: what is left of its minute, and
 * nothing for a figure kept past it (while the RPC is down), so no cache holds one beyond the
 * hour the reader allows.
 */
function sendFigure(reply: FastifyReply, { figure, ageMs }: SupplyFigure): string {
  const maxAge = Math.max(0, Math.floor((SUPPLY_FRESH_MS - ageMs) / 1000));
  reply.type('text/plain; charset=utf-8').header('cache-control', `public, max-age=${maxAge}`);
  return figure;
}

/** `GET /api/supply/total` and `/circulating`: public reads, plain text, for listing sites. */
export const supplyRoutes: FastifyPluginAsync<{ supply: SupplyReader }> = async (
  app,
  { supply },
) => {
  endpointRoute(app, totalSupplyEndpoint, async (_request, reply) =>
    sendFigure(reply, await supply.read('total')),
  );
  endpointRoute(app, circulatingSupplyEndpoint, async (_request, reply) =>
    sendFigure(reply, await supply.read('circulating')),
  );
};
