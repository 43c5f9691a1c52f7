import { shopPaths } from '#shared/api/paths.ts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  characterParamsSchema,
  ownedCharactersSchema,
  purchaseResponseSchema,
  selectResponseSchema,
  userProfileSchema,
} from '#shared/api/shop.ts';
import { noStore } from '../http/no-store.ts';
import { membersOnly } from '../security/session-scope.ts';
import {
  getOwnedCharacters,
  getProfile,
  purchaseCharacter,
  PURCHASE_REQUIRES_MEMBER,
  SELECT_REQUIRES_MEMBER,
  selectCharacter,
} from './service.ts';

export const shopRoutes: FastifyPluginAsyncZod = async (app) => {
  // A member's balance and collection: never cached by the browser or anything in between.
  app.addHook('onRequest', noStore);

  app.get(
    shopPaths.profile,
    { schema: { response: { 200: userProfileSchema } } },
    async (request) => getProfile(app.deps, request.user),
  );

  app.get(
    shopPaths.characters,
    { schema: { response: { 200: ownedCharactersSchema } } },
    async (request) => getOwnedCharacters(app.deps, request.user),
  );

  app.post(
    shopPaths.purchase,
    {
      onRequest: membersOnly(PURCHASE_REQUIRES_MEMBER),
      schema: { params: characterParamsSchema, response: { 200: purchaseResponseSchema } },
    },
    async (request) => purchaseCharacter(app.deps, request.user, request.params.key),
  );

  app.post(
    shopPaths.select,
    {
      onRequest: membersOnly(SELECT_REQUIRES_MEMBER),
      schema: { params: characterParamsSchema, response: { 200: selectResponseSchema } },
    },
    async (request) => selectCharacter(app.deps, request.user, request.params.key),
  );
};
