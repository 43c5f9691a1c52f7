import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  accountEndpoint,
  accountSettingsEndpoint,
  addPasswordEndpoint,
  holderCheckEndpoint,
  memberPageEndpoint,
} from '#shared/api/members.ts';
import type { SiteConfig } from '#shared/site.ts';
import { clientNetwork } from '../http/client-network.ts';
import { endpointRoute } from '../http/endpoint-route.ts';
import { noStore } from '../http/no-store.ts';
import { checkHolderNow, type HolderContext } from '../holders/service.ts';
import { accountOf, addPassword, memberPage, updateSettings } from './service.ts';

/**
 * A member's public page read: the same for everybody (public scope). `no-cache`: a suspension
 * or a tier lost shows at once.
 */
export const memberReadRoutes: FastifyPluginAsyncZod<{ site: SiteConfig }> = async (
  app,
  { site },
) => {
  endpointRoute(app, memberPageEndpoint, async (request, reply) => {
    reply.header('cache-control', 'no-cache');
    return memberPage(app.deps, site, request.params.username);
  });
};

/** The signed-in member's own account: settings, a first password, a holder check now. */
export const accountRoutes: FastifyPluginAsyncZod<{
  site: SiteConfig;
  holders: HolderContext;
}> = async (app, { site, holders }) => {
  app.addHook('onRequest', noStore);
  endpointRoute(app, accountEndpoint, async (request) => accountOf(app.deps, site, request.user));

  endpointRoute(app, accountSettingsEndpoint, async (request) =>
    updateSettings(app.deps, site, request.user, request.body),
  );

  endpointRoute(app, addPasswordEndpoint, async (request) =>
    addPassword(app.deps, site, request.user, request.body.password),
  );

  endpointRoute(app, holderCheckEndpoint, async (request) => {
    await checkHolderNow(holders, app.deps.rateLimiter, request.user.id, clientNetwork(request));
    return accountOf(app.deps, site, request.user);
  });
};
