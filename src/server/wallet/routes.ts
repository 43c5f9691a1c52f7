import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { linkWalletEndpoint, walletChallengeEndpoint, walletEndpoint } from '#shared/api/wallet.ts';
import { endpointRoute } from '../http/endpoint-route.ts';
import { clientNetwork } from '../http/client-network.ts';
import { noStore } from '../http/no-store.ts';
import { membersOnly } from '../security/session-scope.ts';
import { issueChallenge, linkWallet, memberWallet, type PendingPrize } from './service.ts';
import { siteIdentity } from './siws-checks.ts';

const LOGIN_FIRST = 'Please log in to link a wallet';

/** A member's proven Solana wallet (Sign In With Solana); session scope. membersOnly answers a
 * visitor 401 first, so each handler has its member (`request.user!`). */
export const walletRoutes: FastifyPluginAsyncZod<{ pendingPrize: PendingPrize }> = async (
  app,
  { pendingPrize },
) => {
  const membersOnlyHere = membersOnly(LOGIN_FIRST);

  endpointRoute(app, walletEndpoint, async (request) => memberWallet(app.deps, request.user!), {
    onRequest: membersOnlyHere,
    preHandler: noStore,
  });

  endpointRoute(
    app,
    walletChallengeEndpoint,
    async (request) =>
      issueChallenge(app.deps, request.user!, siteIdentity(request), clientNetwork(request)),
    { onRequest: membersOnlyHere, preHandler: noStore },
  );

  endpointRoute(
    app,
    linkWalletEndpoint,
    async (request) =>
      linkWallet(
        app.deps,
        request.user!,
        request.body,
        siteIdentity(request),
        clientNetwork(request),
        pendingPrize,
      ),
    { onRequest: membersOnlyHere },
  );
};
