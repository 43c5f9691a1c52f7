import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { linkWalletEndpoint, walletChallengeEndpoint, walletEndpoint } from '#shared/api/wallet.ts';
import { endpointRoute } from '../http/endpoint-route.ts';
import { clientNetwork } from '../http/client-network.ts';
import { noStore } from '../http/no-store.ts';
import { issueChallenge, linkWallet, memberWallet, type PendingPrize } from './service.ts';
import { siteIdentity } from './siws-checks.ts';

/**
 * A member's proven Solana wallet (Sign In With Solana); session scope. Members' endpoints: a
 * visitor is answered 401 before any handler runs.
 */
export const walletRoutes: FastifyPluginAsyncZod<{ pendingPrize: PendingPrize }> = async (
  app,
  { pendingPrize },
) => {
  endpointRoute(app, walletEndpoint, async (request) => memberWallet(app.deps, request.user), {
    preHandler: noStore,
  });

  endpointRoute(
    app,
    walletChallengeEndpoint,
    async (request) =>
      issueChallenge(app.deps, request.user, siteIdentity(request), clientNetwork(request)),
    { preHandler: noStore },
  );

  endpointRoute(app, linkWalletEndpoint, async (request) =>
    linkWallet(
      app.deps,
      request.user,
      request.body,
      siteIdentity(request),
      clientNetwork(request),
      pendingPrize,
    ),
  );
};
