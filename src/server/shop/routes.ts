import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  characterParamsSchema,
  ownedCharactersSchema,
  purchaseResponseSchema,
  selectResponseSchema,
  userProfileSchema,
} from '#shared/api/shop.ts';
import { getOwnedCharacters, getProfile, purchaseCharacter, selectCharacter } from './service.ts';

export const shopRoutes: FastifyPluginAsyncZod = async (app) => {
  // A member's balance and collection: never cached by the browser or anything in between.
  app.addHook('onSend', async (_request, reply) => {
    reply.header('cache-control', 'no-store');
  });

  app.get(
    '/api/user-profile',
    { schema: { response: { 200: userProfileSchema } } },
    async (request) => getProfile(app.deps, request.user),
  );

  app.get(
    '/api/user-characters',
    { schema: { response: { 200: ownedCharactersSchema } } },
    async (request) => getOwnedCharacters(app.deps, request.user),
  );

  app.post(
    '/api/characters/:key/purchase',
    { schema: { params: characterParamsSchema, response: { 200: purchaseResponseSchema } } },
    async (request) => purchaseCharacter(app.deps, request.user, request.params.key),
  );

  app.post(
    '/api/characters/:key/select',
    { schema: { params: characterParamsSchema, response: { 200: selectResponseSchema } } },
    async (request) => selectCharacter(app.deps, request.user, request.params.key),
  );
};
