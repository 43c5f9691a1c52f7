// The routes under load, each bound to one site: the requests a real visitor, member and player
// send, and each one's share of the connections in the mix.
import type autocannon from 'autocannon';
import { authPaths, gamePaths, memePaths } from '#shared/api/paths.ts';
import { playPool, type GameStats, type ScoreToSend } from './players.ts';
import type { Site } from './sites.ts';

/** Runs of the score route's pool started a second (each takes about five). */
const POOL_RUNS_PER_SECOND = 200;

export interface Route {
  name: string;
  read: boolean;
  /** Share of the connections in the mix; 0: measured alone only. */
  weight: number;
  /** The bare route it is set beside. */
  baseline: 'GET' | 'POST';
  request: autocannon.Request;
  /**
   * Readies what a slice of the route alone sends and says how many requests that is (the
   * score route plays its runs first); without it a slice runs for its time.
   */
  prepareSlice?(): Promise<number>;
}

export function routesFor(
  site: Site,
  options: { scoresPerSlice: number; poolStats: GameStats },
): Route[] {
  const visitors = Array.from({ length: 5_000 }, (_, i) => ({
    cookie: `${site.visitor.cookie}; voted=1`,
    ip: `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`,
  }));
  let votes = 0;
  let scores: ScoreToSend[] = [];
  let nextScore = 0;
  const get = (name: string, weight: number, path: string, headers?: Record<string, string>) => ({
    name,
    read: true,
    weight,
    baseline: 'GET' as const,
    request: { method: 'GET' as const, path, ...(headers ? { headers } : {}) },
  });
  return [
    // As a browser asks for it: every browser accepts brotli, and the page is kept compressed.
    get('GET /', 10, '/', { 'accept-encoding': 'gzip, deflate, br, zstd' }),
    get('GET /api/leaderboard', 25, gamePaths.leaderboard),
    get('GET /api/memes', 30, memePaths.list),
    // A member's read: the session look-up is what it costs beyond a visitor's (issue 20).
    get('GET /api/auth/me (member)', 10, authPaths.me, { cookie: site.memberCookie }),
    get('GET /api/csrf-token', 10, authPaths.csrfToken),
    // The app's own floor (hooks, headers, no database), to read the other routes against.
    get('GET /healthz', 0, '/healthz'),
    {
      name: 'POST /api/memes/:id/vote',
      read: false,
      weight: 15,
      baseline: 'POST',
      request: {
        method: 'POST',
        setupRequest(req) {
          votes++;
          const visitor = visitors[votes % visitors.length]!;
          const memeId =
            site.hotMemes[(Math.imul(votes, 2654435761) >>> 0) % site.hotMemes.length]!;
          req.path = memePaths.vote.replace(':id', String(memeId));
          req.headers = {
            'content-type': 'application/json',
            'x-csrf-token': site.visitor.csrfToken,
            cookie: visitor.cookie,
            'x-forwarded-for': visitor.ip,
          };
          req.body = votes % 3 === 0 ? '{"voteType":"down"}' : '{"voteType":"up"}';
          return req;
        },
      },
    },
    {
      // Scores of runs played honestly to game over just before (players.ts); in the mix,
      // scores come from the players who play beside it.
      name: 'POST /api/game-scores',
      read: false,
      weight: 0,
      baseline: 'POST',
      request: {
        method: 'POST',
        path: gamePaths.scores,
        setupRequest(req) {
          // autocannon may ready a request per connection it never sends; past the pool, a
          // request repeats the last score (never sent when the pool is exactly the amount).
          const score = scores[Math.min(nextScore++, scores.length - 1)]!;
          req.headers = { 'content-type': 'application/json', 'x-forwarded-for': score.address };
          req.body = score.body;
          return req;
        },
      },
      async prepareSlice() {
        scores = await playPool(
          site.origins,
          site.visitor,
          options.scoresPerSlice,
          POOL_RUNS_PER_SECOND,
          options.poolStats,
        );
        nextScore = 0;
        return scores.length;
      },
    },
  ];
}
