import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  addCoinsEndpoint,
  issueRunEndpoint,
  leaderboardEndpoint,
  leaderboardResponseSchema,
  progressEndpoint,
  replayEndpoint,
  runIdSchema,
  submitScoreEndpoint,
  type LeaderboardEntry,
} from '#shared/api/game.ts';
import { endpointRoute } from '../http/endpoint-route.ts';
import { MAX_STEPS } from '#shared/game/constants.ts';
import { MAX_JUMPS_PER_REPORT } from '#shared/game/pacing.ts';
import { weekStartUtc } from '#shared/time.ts';
import type { FastifyRequest } from 'fastify';
import type { Clock } from '../clock.ts';
import { clientNetwork } from '../http/client-network.ts';
import { noStore } from '../http/no-store.ts';
import { ReadCache, sharedReadHeaders } from '../http/read-cache.ts';
import { countingRefusals, createMemoryRateLimiter } from '../security/rate-limit.ts';
import { pruneUnverifiedRuns } from './repository.ts';
import { entryReplay, leaderboard } from './board.ts';
import { addCoins } from './coins.ts';
import { admitReport, issueRun, reportProgress, RUN_TTL_MS, type ReportedRun } from './runs.ts';
import { submitScore } from './scores.ts';
import { warmUpReplay } from './warm-up.ts';

/**
 * A jump log of MAX_INPUTS step numbers is about 65 KB of JSON, just over the app's 64 KB
 * default, so the two routes that carry one get room for it and nothing more.
 */
const RUN_BODY_LIMIT = 128 * 1024;
/**
 * The largest report the schema accepts (MAX_JUMPS_PER_REPORT step numbers of up to five digits,
 * a comma each, and the step), rounded up to whole kilobytes: 2 KB. A larger body is refused
 * (413) unread; 64 KB of jumps parsed before any limit slowed everyone's reads (issue 30).
 */
const PROGRESS_BODY_LIMIT =
  Math.ceil((64 + MAX_JUMPS_PER_REPORT * (String(MAX_STEPS).length + 1)) / 1024) * 1024;
/** A week's standings as cached per node: the JSON text, checked against the schema once. */
interface Standings {
  json: string;
}

/** Shared by the two plugins: scores clear it, the leaderboard reads it. */
export type StandingsCache = ReadCache<Standings>;

export function createStandingsCache(clock: Clock): StandingsCache {
  return new ReadCache<Standings>({ clock });
}

/** The game's writes: runs, scores and coins (in the session scope). */
export const gameRoutes: FastifyPluginAsyncZod<{ standings: StandingsCache }> = async (
  app,
  { standings },
) => {
  warmUpReplay();

  app.maintenance.add('game runs', (now) => pruneUnverifiedRuns(app.deps.db, now - RUN_TTL_MS));

  endpointRoute(
    app,
    issueRunEndpoint,
    async (request) => issueRun(app.deps, request.user, clientNetwork(request)),
    { preHandler: noStore },
  );

  // A report's run, looked up and counted before its body is read (admitReport).
  const admitted = new WeakMap<FastifyRequest, ReportedRun>();
  const unknownRunReports = countingRefusals(createMemoryRateLimiter(app.deps.clock), (limit) =>
    app.deps.metrics.rateLimitRefusals.inc(limit),
  );
  endpointRoute(
    app,
    progressEndpoint,
    async (request) => reportProgress(app.deps, admitted.get(request)!, request.body),
    {
      onRequest: async (request) => {
        const { runId } = request.params as { runId: string };
        // A malformed id is the params schema's 400: nothing to look up.
        if (!runIdSchema.safeParse(runId).success) return;
        admitted.set(
          request,
          await admitReport(
            app.deps,
            unknownRunReports,
            request.user,
            runId,
            clientNetwork(request),
          ),
        );
      },
      bodyLimit: PROGRESS_BODY_LIMIT,
      preHandler: noStore,
    },
  );

  endpointRoute(
    app,
    submitScoreEndpoint,
    async (request) => {
      const entry = await submitScore(app.deps, request.user, request.body, clientNetwork(request));
      standings.clear();
      return { entry };
    },
    { bodyLimit: RUN_BODY_LIMIT },
  );

  endpointRoute(
    app,
    addCoinsEndpoint,
    async (request) => addCoins(app.deps, request.user, request.body),
    { bodyLimit: RUN_BODY_LIMIT },
  );
};

/** The weekly standings: the same for everybody, so a public read. */
export const standingsRoutes: FastifyPluginAsyncZod<{ standings: StandingsCache }> = async (
  app,
  { standings },
) => {
  const cachedStandings = (limit: number) =>
    standings.get(`${weekStartUtc(app.deps.clock.now())}:${limit}`, async () => {
      const entries = leaderboardResponseSchema.parse(await leaderboard(app.deps, limit));
      return { json: JSON.stringify(entries) };
    });

  endpointRoute(app, leaderboardEndpoint, async (request, reply) => {
    sharedReadHeaders(reply);
    const { json } = await cachedStandings(request.query.limit);
    // Checked against the schema when it was made; the JSON is sent as it is.
    return reply
      .type('application/json; charset=utf-8')
      .send(json as unknown as LeaderboardEntry[]);
  });

  // A finished, ranked run never changes; an operator may still remove its entry, so briefly.
  endpointRoute(app, replayEndpoint, async (request, reply) => {
    reply.header('cache-control', 'public, max-age=60');
    return entryReplay(app.deps, request.params.entryId);
  });
};
