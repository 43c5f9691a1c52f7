import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  ownedCharactersEndpoint,
  profileEndpoint,
  purchaseEndpoint,
  selectEndpoint,
} from '#shared/api/shop.ts';
import { endpointRoute } from '../http/endpoint-route.ts';
import { noStore } from '../http/no-store.ts';
import {
  getOwnedCharacters,
  getProfile,
  purchaseCharacter,
  selectCharacter,
  type HolderRule,
} from './service.ts';

/** `holders`: the holders' row's rule (holders/service.ts), handed in by app.ts. */
export const shopRoutes: FastifyPluginAsyncZod<{ holders: HolderRule }> = async (
  app,
  { holders },
) => {
  // A member's balance and collection: never cached by the browser or anything in between.
  app.addHook('onRequest', noStore);

  endpointRoute(app, profileEndpoint, async (request) => getProfile(app.deps, request.user));

  endpointRoute(app, ownedCharactersEndpoint, async (request) =>
    getOwnedCharacters(app.deps, request.user),
  );

  endpointRoute(app, purchaseEndpoint, async (request) =>
    purchaseCharacter(app.deps, request.user, request.params.key, holders),
  );

  endpointRoute(app, selectEndpoint, async (request) =>
    selectCharacter(app.deps, request.user, request.params.key),
  );
};
