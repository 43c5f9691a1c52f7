import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { WINNERS_LIMIT, winnersEndpoint, type GiveawayWinner } from '#shared/api/game.ts';
import { endpointRoute } from '../http/endpoint-route.ts';
import { explorerTxUrl, type SiteConfig } from '#shared/site.ts';
import { paidWeeks } from './repository.ts';

/** Recent Winners: every paid week, from the prize record; a public read. */
export const prizeRoutes: FastifyPluginAsyncZod<{ site: SiteConfig }> = async (app, { site }) => {
  endpointRoute(app, winnersEndpoint, async (_request, reply) => {
    reply.header('cache-control', 'no-cache');
    const rows = await paidWeeks(app.deps.db, WINNERS_LIMIT);
    return rows.map((row): GiveawayWinner => ({
      id: row.id,
      week: row.week_id,
      playerName: row.player_name,
      prize: row.prize ?? site.weeklyChallenge.prize,
      wallet: row.wallet_address,
      // Payments recorded before signatures kept the explorer URL the operator gave.
      txUrl: row.tx_signature ? explorerTxUrl(site, row.tx_signature) : row.tx_url!,
      paidAt: new Date(row.created_at).toISOString(),
    }));
  });
};
