import { gamePaths } from '#shared/api/paths.ts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  addCoinsBodySchema,
  addCoinsResponseSchema,
  gameRunResponseSchema,
  LEADERBOARD_DEFAULT_LIMIT,
  LEADERBOARD_MAX_LIMIT,
  leaderboardQuerySchema,
  leaderboardResponseSchema,
  progressBodySchema,
  progressParamsSchema,
  progressResponseSchema,
  replayParamsSchema,
  replayResponseSchema,
  type LeaderboardEntry,
  submitScoreBodySchema,
  submitScoreResponseSchema,
} from '#shared/api/game.ts';
import { weekStartUtc } from '#shared/time.ts';
import type { Clock } from '../clock.ts';
import type { MemoryReads } from '../http/memory-reads.ts';
import { SharedReadCache } from '../ops/shared-read-cache.ts';
import { membersOnly } from '../security/session-scope.ts';
import { pruneUnverifiedRuns } from './repository.ts';
import {
  addCoins,
  COINS_REQUIRE_MEMBER,
  entryReplay,
  issueRun,
  leaderboard,
  reportProgress,
  RUN_TTL_MS,
  submitScore,
} from './service.ts';
import { warmUpReplay } from './warm-up.ts';

/**
 * A jump log of MAX_INPUTS step numbers is about 65 KB of JSON, just over the app's 64 KB
 * default, so the two routes that carry one get room for it and nothing more.
 */
const RUN_BODY_LIMIT = 128 * 1024;
const PRUNE_INTERVAL_MS = 10 * 60 * 1000;
/** See docs/decisions/005-leaderboard-cache.md: other nodes' new scores show within this. */
const LEADERBOARD_CACHE_MS = 1000;

/** A week's standings as cached per node: the list, its length limit and its JSON text. */
interface Standings {
  entries: LeaderboardEntry[];
  limit: number;
  /** Kept as a string: Node writes a string body together with the headers in one write. */
  json: string;
}

/** Shared by the two plugins: scores drop what they change, the leaderboard reads the rest. */
export type StandingsCache = SharedReadCache<Standings>;

export function createStandingsCache(clock: Clock): StandingsCache {
  return new SharedReadCache<Standings>(LEADERBOARD_CACHE_MS, () => clock.now());
}

/** The game's writes: runs, scores and coins (in the session scope). */
export const gameRoutes: FastifyPluginAsyncZod<{ standings: StandingsCache }> = async (
  app,
  { standings },
) => {
  warmUpReplay();

  const prune = setInterval(() => {
    pruneUnverifiedRuns(app.deps.db, app.deps.clock.now() - RUN_TTL_MS).catch((err: unknown) =>
      app.log.warn({ err }, 'pruning game runs failed'),
    );
  }, PRUNE_INTERVAL_MS);
  prune.unref();
  app.addHook('onClose', async () => clearInterval(prune));

  app.post(
    gamePaths.runs,
    { schema: { response: { 201: gameRunResponseSchema } } },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return reply.code(201).send(await issueRun(app.deps, request.user, request.ip));
    },
  );

  app.post(
    gamePaths.progress,
    {
      schema: {
        params: progressParamsSchema,
        body: progressBodySchema,
        response: { 200: progressResponseSchema },
      },
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return reportProgress(
        app.deps,
        request.user,
        request.params.runId,
        request.body,
        request.ip,
      );
    },
  );

  app.post(
    gamePaths.scores,
    {
      bodyLimit: RUN_BODY_LIMIT,
      schema: { body: submitScoreBodySchema, response: { 201: submitScoreResponseSchema } },
    },
    async (request, reply) => {
      const entry = await submitScore(app.deps, request.user, request.body, request.ip);
      // Only an entry that makes a cached list can change it (ties rank the earlier entry first).
      standings.invalidate(
        ({ entries, limit }) => entries.length < limit || entry.score > entries.at(-1)!.score,
      );
      return reply.code(201).send({ entry });
    },
  );

  app.post(
    gamePaths.coins,
    {
      onRequest: membersOnly(COINS_REQUIRE_MEMBER),
      bodyLimit: RUN_BODY_LIMIT,
      schema: { body: addCoinsBodySchema, response: { 200: addCoinsResponseSchema } },
    },
    async (request) => addCoins(app.deps, request.user, request.body),
  );
};

/** The weekly standings: the same for everybody, so a public read. */
export const standingsRoutes: FastifyPluginAsyncZod<{
  standings: StandingsCache;
  memoryReads: MemoryReads;
}> = async (app, { standings, memoryReads }) => {
  const cachedStandings = (limit: number) =>
    standings.get(`${weekStartUtc(app.deps.clock.now())}:${limit}`, async () => {
      const entries = leaderboardResponseSchema.parse(await leaderboard(app.deps, limit));
      return { entries, limit, json: JSON.stringify(entries) };
    });

  // The route below answers what this passes on (other queries, the first load) the same way.
  memoryReads.add(gamePaths.leaderboard, (query) => {
    const limit = query === '' ? LEADERBOARD_DEFAULT_LIMIT : plainLimit(query);
    if (limit === undefined) return undefined;
    const cached = cachedStandings(limit);
    return cached instanceof Promise ? undefined : cached.json;
  });

  app.get(
    gamePaths.leaderboard,
    {
      schema: { querystring: leaderboardQuerySchema, response: { 200: leaderboardResponseSchema } },
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-cache');
      const { json } = await cachedStandings(request.query.limit);
      // Checked against the schema when it was made; the JSON is sent as it is.
      return reply
        .type('application/json; charset=utf-8')
        .send(json as unknown as LeaderboardEntry[]);
    },
  );

  // A finished, ranked run never changes; an operator may still remove its entry, so briefly.
  app.get(
    gamePaths.replay,
    { schema: { params: replayParamsSchema, response: { 200: replayResponseSchema } } },
    async (request, reply) => {
      reply.header('cache-control', 'public, max-age=60');
      return entryReplay(app.deps, request.params.entryId);
    },
  );
};

/** `limit=N` with N a valid limit written plainly; anything else is left to the route's schema. */
function plainLimit(query: string): number | undefined {
  const match = /^limit=([1-9]\d{0,2})$/.exec(query);
  const limit = match ? Number(match[1]) : 0;
  return limit >= 1 && limit <= LEADERBOARD_MAX_LIMIT ? limit : undefined;
}
