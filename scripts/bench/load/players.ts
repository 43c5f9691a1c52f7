// Honest players over HTTP, as decision 012 wants every ranked run played: a run issued by the
// server, the autopilot's jumps for its seed, a progress report each second on the real clock,
// then the score. Two uses: a pool of runs played through to game over before the score route
// is measured alone (autocannon then sends their scores as fast as the server takes them), and
// players who keep playing game after game beside the rest of the mix.
import { progressPath, type GameRunResponse } from '#shared/api/game.ts';
import { gamePaths } from '#shared/api/paths.ts';
import {
  playHonestly,
  scoreBody,
  sendProgressReports,
  type HonestRun,
} from '#test-support/honest-run.ts';
import { count, emptyStats, record, type Stats } from './measure.ts';
import { sleep } from '#test-support/sleep.ts';

/** A second of play (one report, at game over) keeps the pool quick to play. */
const POOL_RUN_STEPS = 60;
/** Seven seconds of play: a report a second, then the score. */
const PLAYER_RUN_STEPS = 420;

export interface Visitor {
  /** The csrf cookie (`name=value`) its token was issued with. */
  cookie: string;
  csrfToken: string;
}

/** Each game from its own address, as the per-address limits on runs and scores expect. */
let games = 0;
const nextAddress = () => {
  const n = games++;
  return `10.${100 + ((n >> 16) & 127)}.${(n >> 8) & 255}.${n & 255}`;
};

/** Requests of the game, per route. */
export interface GameStats {
  issue: Stats;
  progress: Stats;
  score: Stats;
  /** Answers other than 2xx by route and the server's code, e.g. `progress 422 RUN_BEHIND`. */
  refusals: Map<string, number>;
}

export const emptyGameStats = (seconds = 0): GameStats => ({
  issue: emptyStats(seconds),
  progress: emptyStats(seconds),
  score: emptyStats(seconds),
  refusals: new Map(),
});

async function send(
  game: GameStats,
  kind: 'issue' | 'progress' | 'score',
  url: string,
  headers: Record<string, string>,
  body: unknown,
): Promise<{ status: number; json: unknown }> {
  const stats = game[kind];
  const started = performance.now();
  try {
    const res = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify(body),
    });
    const json: unknown = await res.json().catch(() => undefined);
    record(stats, res.status, performance.now() - started);
    if (!res.ok) count(game.refusals, `${kind} ${res.status} ${(json as { code?: string })?.code}`);
    return { status: res.status, json };
  } catch (error) {
    record(stats, error as Error, 0);
    return { status: 0, json: undefined };
  }
}

/** A game from issue to its last progress report; undefined when the server ended it early. */
async function playRound(
  origin: string,
  visitor: Visitor,
  targetSteps: number,
  stats: GameStats,
): Promise<{ run: HonestRun; address: string } | undefined> {
  const address = nextAddress();
  const headers = {
    cookie: visitor.cookie,
    'x-csrf-token': visitor.csrfToken,
    'x-forwarded-for': address,
  };
  const issued = await send(stats, 'issue', `${origin}${gamePaths.runs}`, headers, {});
  if (issued.status !== 201) return undefined;
  const issuedAt = Date.now();
  const { runId, seed } = issued.json as GameRunResponse;
  const run = playHonestly(runId, seed, targetSteps);
  const reported = await sendProgressReports(run, issuedAt, async (body) => {
    const sent = await send(stats, 'progress', `${origin}${progressPath(runId)}`, headers, body);
    return sent.status;
  }).then(
    () => true,
    () => false,
  );
  return reported ? { run, address } : undefined;
}

export interface ScoreToSend {
  address: string;
  body: string;
}

/**
 * `count` runs played through to game over over the origins in turn, started `perSecond` a
 * second (all at once, the queue of their first requests would put their reports seconds behind
 * on a busy server): their scores are ready to send within the run's lifetime (RUN_TTL_MS).
 */
export async function playPool(
  origins: string[],
  visitor: Visitor,
  count: number,
  perSecond: number,
  stats: GameStats,
): Promise<ScoreToSend[]> {
  const ready: ScoreToSend[] = [];
  const rounds = Array.from({ length: count }, async (_, n) => {
    await sleep((n * 1000) / perSecond);
    const played = await playRound(origins[n % origins.length]!, visitor, POOL_RUN_STEPS, stats);
    if (played) {
      const body = JSON.stringify(scoreBody(played.run, `player_${n % 3000}`));
      ready.push({ address: played.address, body });
    }
  });
  await Promise.all(rounds);
  return ready;
}

/**
 * `count` players, each playing game after game until `stop()`, which resolves once each has
 * finished its round and sent its score (so every score is counted, accepted or refused).
 */
export function startPlayers(
  origins: string[],
  visitor: Visitor,
  count: number,
  stats: GameStats,
): { stop(): Promise<void> } {
  let playing = true;
  const player = async (i: number) => {
    for (let n = 0; playing; n++) {
      const origin = origins[(i + n) % origins.length]!;
      const played = await playRound(origin, visitor, PLAYER_RUN_STEPS, stats);
      if (!played) continue;
      const headers = { 'x-forwarded-for': played.address };
      await send(
        stats,
        'score',
        `${origin}${gamePaths.scores}`,
        headers,
        scoreBody(played.run, `player_${i}`),
      );
    }
  };
  const all = Promise.all(Array.from({ length: count }, (_, i) => player(i)));
  return {
    async stop() {
      playing = false;
      await all;
    },
  };
}
