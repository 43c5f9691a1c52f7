import { memePaths } from '#shared/api/paths.ts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  createMemeBodySchema,
  createMemeResponseSchema,
  listMemesQuerySchema,
  memeIdParamsSchema,
  memesPageSchema,
  type MemesPage,
  voteBodySchema,
  voteResponseSchema,
} from '#shared/api/memes.ts';
import { unauthorized } from '../http-error.ts';
import { membersOnly } from '../security/session-scope.ts';
import { ReadCache, sharedReadHeaders } from '../http/read-cache.ts';
import { createMeme, listMemesJson, vote, type CachedPage, type Gallery } from './service.ts';
import { currentVoter, voterForVote } from './voter.ts';

const CREATE_REQUIRES_MEMBER = 'Please log in to upload memes';

export const memeRoutes: FastifyPluginAsyncZod = async (app) => {
  const gallery: Gallery = {
    deps: app.deps,
    cache: new ReadCache<CachedPage>({ now: () => app.deps.clock.now() }),
  };

  app.get(
    memePaths.list,
    { schema: { querystring: listMemesQuerySchema, response: { 200: memesPageSchema } } },
    async (request, reply) => {
      const voter = currentVoter(request);
      // A caller who has voted gets their own votes in the answer: that one is theirs alone.
      if (voter === null) sharedReadHeaders(reply).header('vary', 'cookie');
      else reply.header('cache-control', 'private, no-cache');
      // Already checked against memesPageSchema when the page was made (see listMemesJson);
      // the JSON is sent as it is.
      const json = await listMemesJson(gallery, request.query, voter);
      return reply.type('application/json; charset=utf-8').send(json as unknown as MemesPage);
    },
  );

  app.post(
    memePaths.create,
    {
      onRequest: membersOnly(CREATE_REQUIRES_MEMBER),
      schema: { body: createMemeBodySchema, response: { 201: createMemeResponseSchema } },
    },
    async (request, reply) => {
      if (!request.user) throw unauthorized(CREATE_REQUIRES_MEMBER);
      const meme = await createMeme(gallery, request.user, request.body);
      return reply.code(201).send({ meme });
    },
  );

  app.post(
    memePaths.vote,
    {
      schema: {
        params: memeIdParamsSchema,
        body: voteBodySchema,
        response: { 200: voteResponseSchema },
      },
    },
    async (request, reply) =>
      vote(gallery, {
        memeId: request.params.id,
        voter: voterForVote(request, reply),
        voteType: request.body.voteType,
        ip: request.ip,
      }),
  );
};
