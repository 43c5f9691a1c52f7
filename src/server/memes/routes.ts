import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  createMemeEndpoint,
  getMemeEndpoint,
  listMemesEndpoint,
  type Meme,
  reportMemeEndpoint,
  voteEndpoint,
} from '#shared/api/memes.ts';
import { endpointRoute } from '../http/endpoint-route.ts';
import { clientNetwork } from '../http/client-network.ts';
import { ReadCache, sharedReadHeaders } from '../http/read-cache.ts';
import { enforceRateLimit } from '../security/rate-limit.ts';
import { GALLERY_LIMITS } from './limits.ts';
import { fileReport } from './moderation.ts';
import { alertIfQueuePastSize } from './queue-alert.ts';
import {
  createMeme,
  getMeme,
  listMemesJson,
  nextPageLink,
  vote,
  type CachedPage,
  type Gallery,
} from './service.ts';
import { currentVoter, memberVoter, networkIdentity, voterForVote } from './voter.ts';

export const memeRoutes: FastifyPluginAsyncZod = async (app) => {
  const gallery: Gallery = {
    deps: app.deps,
    cache: new ReadCache<CachedPage>({ clock: app.deps.clock }),
  };
  // A meme added, hidden or deleted on any node: this node's pages are made again.
  app.deps.live.onEvent((event) => {
    if (event.type === 'meme') gallery.cache.clear();
  });

  endpointRoute(app, listMemesEndpoint, async (request, reply) => {
    const voter = currentVoter(request);
    // A caller who has voted gets their own votes in the answer: that one is theirs alone.
    if (voter === null) sharedReadHeaders(reply).header('vary', 'cookie');
    else reply.header('cache-control', 'private, no-cache');
    const { json, nextCursor } = await listMemesJson(gallery, request.query, voter);
    // The body is the list itself (src/shared/api/memes.ts); the next page's address is a Link (RFC 8288).
    if (nextCursor !== null) {
      reply.header('link', `<${nextPageLink(request.query, nextCursor)}>; rel="next"`);
    }
    // Already checked against memesListSchema when the page was made (see listMemesJson);
    // the JSON is sent as it is.
    return reply.type('application/json; charset=utf-8').send(json as unknown as Meme[]);
  });

  endpointRoute(app, getMemeEndpoint, async (request, reply) => {
    reply.header('cache-control', 'private, no-cache');
    return getMeme(app.deps, request.params.id, currentVoter(request), request.user?.id);
  });

  endpointRoute(app, createMemeEndpoint, async (request) => ({
    meme: await createMeme(gallery, request.user, request.body),
  }));

  endpointRoute(app, voteEndpoint, async (request, reply) =>
    vote(gallery, {
      memeId: request.params.id,
      voter: voterForVote(request, reply),
      voteType: request.body.voteType,
      network: clientNetwork(request),
    }),
  );

  endpointRoute(app, reportMemeEndpoint, async (request) => {
    // Per subscriber (/48): one person walking their prefix would be many reporters (018).
    await enforceRateLimit(
      app.deps.rateLimiter,
      `report:net:${clientNetwork(request, 'subscriber')}`,
      GALLERY_LIMITS.reportPerIp,
      'Too many reports. Please try again later.',
    );
    // One report per member, or per network for a visitor; the threshold counts networks.
    const network = networkIdentity(request);
    const { hidden } = await fileReport(app.deps.db, {
      memeId: request.params.id,
      reporter: request.user ? memberVoter(request.user.id) : network,
      reporterIdentity: network,
      memberId: request.user?.id ?? null,
      reason: request.body.reason,
      now: app.deps.clock.now(),
    });
    // A report that hides the meme takes it off this node's lists at once.
    if (hidden) gallery.cache.clear();
    await alertIfQueuePastSize(app.deps);
    return { message: 'Thanks, the moderators will take a look.' };
  });
};
