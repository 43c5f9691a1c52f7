import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { WINNERS_LIMIT, winnersEndpoint, type GiveawayWinner } from '#shared/api/game.ts';
import { endpointRoute } from '../http/endpoint-route.ts';
import { explorerTxUrl } from '#shared/explorer-links.ts';
import type { SiteConfig } from '#shared/site.ts';
import { paidWeeks } from './repository.ts';

/** Recent Winners: every paid week, from the prize record; a public read. */
export const prizeRoutes: FastifyPluginAsyncZod<{ site: SiteConfig }> = async (app, { site }) => {
  endpointRoute(app, winnersEndpoint, async (_request, reply) => {
    reply.header('cache-control', 'no-cache');
    // Only payments verified on chain are shown (docs/decisions/023-prize-paid-on-chain.md).
    // A mainnet site never shows a rehearsal's payment on another cluster (decision 030).
    const rows = await paidWeeks(app.deps.db, WINNERS_LIMIT, site.solana.cluster);
    return rows.map((row): GiveawayWinner => ({
      id: row.id,
      week: row.week_id,
      playerName: row.player_name,
      prize: row.prize ?? site.weeklyChallenge.prize,
      wallet: row.wallet_address,
      txUrl: explorerTxUrl(site, row.tx_signature!),
      paidAt: new Date(row.block_time ?? row.created_at).toISOString(),
      verified: true,
      signature: row.tx_signature!,
      slot: String(row.slot),
      amount: String(row.lamports),
      recipient: row.wallet_address!,
    }));
  });
};
