// Load figures (`npm run bench:load`): autocannon on loopback against real server processes
// (started as production runs them), this tree and a baseline commit in the same run, side by
// side. Three setups: one node on SQLite, one node on PostgreSQL, two nodes on one PostgreSQL
// (connections split between them, as a round-robin balancer would).
//
// For each setup: each route alone at full concurrency, in slices taken in turn with a bare
// Fastify route (scripts/bench/bare-server.ts, the machine's ceiling) and the other tree, so
// every figure of a route sees the same machine while other load on it comes and goes; then
// every route at once, with honest players (players.ts) playing paced games beside it.
// Afterwards the stored data is checked: vote counts equal the votes stored, every score
// answered 201 is stored.
//
//   npm run bench:load -- [--baseline <git rev>] [--no-baseline]
//
// The baseline defaults to the previous commit (HEAD~1), built from `git archive` in a temporary
// folder (scripts/bench/trees.ts, shared with bench:page). Environment: LOAD_SECONDS (10) per
// route and tree, LOAD_CONNECTIONS (100), LOAD_WARMUP_SECONDS (3), LOAD_SETUPS
// (sqlite,postgres,postgres-2), LOAD_ROUTES (parts of the route names to measure alone, e.g.
// leaderboard,memes; all by default), LOAD_MIX (0 skips the mix), LOAD_PLAYERS (100 in the
// mix), LOAD_SCORES (scores per slice of the score route, 1500), LOAD_LOG_LEVEL (the nodes'
// LOG_LEVEL, default info as in production; the output goes nowhere), BENCH_DATABASE_URL or
// TEST_DATABASE_URL (the PostgreSQL server to create databases on; default
// postgres://postgres@127.0.0.1:5432/postgres).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import type autocannon from 'autocannon';
import { findCountMismatches } from '#server/memes/repository.ts';
import { buildBaselineTree, buildThisTree, type BuiltTree } from '../trees.ts';
import { measure, merge, settle, summarise, type Stats, type Target } from './measure.ts';
import { emptyGameStats, startPlayers, type GameStats } from './players.ts';
import { report, type AloneRow, type MixRow, type TreeChecks } from './report.ts';
import { routesFor, type Route } from './routes.ts';
import { countRows } from './seed.ts';
import { SETUPS, startBare, startSite, type Setup, type Site } from './sites.ts';

const { values: args } = parseArgs({
  options: {
    baseline: { type: 'string', default: 'HEAD~1' },
    'no-baseline': { type: 'boolean', default: false },
  },
});
const env = process.env;
const SECONDS = Number(env.LOAD_SECONDS ?? 10);
const CONNECTIONS = Number(env.LOAD_CONNECTIONS ?? 100);
const WARMUP_SECONDS = Number(env.LOAD_WARMUP_SECONDS ?? 3);
const SETUP_NAMES = (env.LOAD_SETUPS ?? 'sqlite,postgres,postgres-2')
  .split(',')
  .map((s) => s.trim());
const ROUTE_FILTER = (env.LOAD_ROUTES ?? '').split(',').map((s) => s.trim());
const MIX = env.LOAD_MIX !== '0';
const PLAYERS = Number(env.LOAD_PLAYERS ?? 100);
const SCORES_PER_SLICE = Number(env.LOAD_SCORES ?? 1500);
const LOG_LEVEL = env.LOAD_LOG_LEVEL ?? 'info';
const PG_ADMIN_URL =
  env.BENCH_DATABASE_URL ?? env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
/** Each route's time alone is cut in this many slices, taken in turn with the bare route's. */
const SLICES = 3;

const BARE: Record<'GET' | 'POST', autocannon.Request> = {
  GET: { method: 'GET', path: '/bare' },
  POST: {
    method: 'POST',
    path: '/bare',
    headers: { 'content-type': 'application/json' },
    body: '{"voteType":"up"}',
  },
};

interface TreeUnderLoad {
  site: Site;
  routes: Route[];
  /** The game requests of the score route's pool, of the warm-up's players, of the mix's. */
  poolGames: GameStats;
  warmGames: GameStats;
  mixGames: GameStats;
  /** The score route's slices alone. */
  scoresAlone: Stats[];
  /** Scores stored before the load (the seeded week). */
  scoresBefore: number;
}

/** The trees of one setup, and the bare route beside them. */
interface Bench {
  under: TreeUnderLoad[];
  bareOrigin: string;
}

/** Waits until every server has worked off what the last measurement left it. */
function settleAll(bench: Bench): Promise<void> {
  return settle([
    ...bench.under.flatMap((u) => u.site.origins.map((o) => `${o}/healthz`)),
    `${bench.bareOrigin}/bare`,
  ]);
}

async function measured(bench: Bench, target: Target, seconds: number): Promise<Stats> {
  const [stats] = await measure([target], seconds);
  await settleAll(bench);
  return stats!;
}

/**
 * One route alone at full concurrency, in slices: the bare route, then each tree (the first
 * tree changes each slice, so neither always follows the bare route).
 */
async function measureAlone(bench: Bench, name: string): Promise<AloneRow> {
  const { under, bareOrigin } = bench;
  const routeOf = (u: TreeUnderLoad) => u.routes.find((r) => r.name === name)!;
  const baseline = BARE[routeOf(under[0]!).baseline];
  const slice = SECONDS / SLICES;
  const bareSlices: Stats[] = [];
  const treeSlices: Stats[][] = under.map(() => []);
  for (let i = 0; i < SLICES; i++) {
    const bareTarget = { origins: [bareOrigin], connections: CONNECTIONS, request: baseline };
    bareSlices.push(await measured(bench, bareTarget, slice));
    const order = i % 2 ? [...under.keys()].reverse() : [...under.keys()];
    for (const t of order) {
      const u = under[t]!;
      const route = routeOf(u);
      const amount = route.prepareSlice ? await route.prepareSlice() : undefined;
      if (amount === 0) continue;
      if (amount !== undefined) await settleAll(bench);
      const target = { origins: u.site.origins, connections: CONNECTIONS, request: route.request };
      const stats = await measured(bench, { ...target, amount }, slice);
      treeSlices[t]!.push(stats);
      if (route.prepareSlice) u.scoresAlone.push(stats);
    }
  }
  return {
    name,
    read: routeOf(under[0]!).read,
    bare: summarise(merge(bareSlices)),
    trees: treeSlices.map((s) => (s.length > 0 ? summarise(merge(s)) : undefined)),
  };
}

/** Every mix route at once on one tree, with honest players beside them. */
async function runMix(bench: Bench, u: TreeUnderLoad, seconds: number, games: GameStats) {
  const routes = u.routes.filter((r) => r.weight > 0);
  const weights = routes.reduce((n, r) => n + r.weight, 0);
  const targets = routes.map((r) => ({
    origins: u.site.origins,
    connections: Math.max(u.site.origins.length, Math.round((CONNECTIONS * r.weight) / weights)),
    request: r.request,
  }));
  const players = startPlayers(u.site.origins, u.site.visitor, PLAYERS, games);
  const stats = await measure(targets, seconds);
  await players.stop();
  await settleAll(bench);
  return routes.map((r, i) => ({
    name: r.name,
    read: r.read,
    connections: targets[i]!.connections,
    stats: stats[i]!,
  }));
}

/** The mix on each tree in turn, as rows: the routes, then the players' requests. */
async function measureMix(bench: Bench): Promise<MixRow[]> {
  const { under } = bench;
  const mixes: Awaited<ReturnType<typeof runMix>>[] = [];
  for (const u of under) mixes.push(await runMix(bench, u, SECONDS, u.mixGames));
  const rows: MixRow[] = mixes[0]!.map((entry, i) => ({
    ...entry,
    trees: mixes.map((m) => summarise(m[i]!.stats)),
  }));
  const gameRows: [string, 'issue' | 'progress' | 'score'][] = [
    ['players: POST /api/game-runs', 'issue'],
    ['players: progress reports', 'progress'],
    ['players: POST /api/game-scores', 'score'],
  ];
  for (const [name, kind] of gameRows) {
    const trees = under.map((u) => summarise(u.mixGames[kind]));
    rows.push({ name, read: false, connections: PLAYERS, trees });
  }
  return rows;
}

/** What the load left behind, which must be exact, and what the game's requests got. */
async function checkTree(u: TreeUnderLoad): Promise<TreeChecks> {
  const games = [u.poolGames, u.warmGames, u.mixGames];
  const scores = merge([...u.scoresAlone, ...games.map((g) => g.score)]);
  const reports = merge(games.map((g) => g.progress));
  return {
    votesStored: await countRows(u.site.db, 'meme_votes'),
    countMismatches: (await findCountMismatches(u.site.db)).length,
    scoresAccepted: scores.statusCounts.get(201) ?? 0,
    scoresRefused: scores.statusCounts.get(422) ?? 0,
    scoresStored: (await countRows(u.site.db, 'game_scores')) - u.scoresBefore,
    reportsAccepted: reports.statusCounts.get(200) ?? 0,
    reportsRefused: reports.statusCounts.get(422) ?? 0,
    refusals: games
      .flatMap((g) => [...g.refusals])
      .map(([reason, n]) => `${reason} x${n}`)
      .join(', '),
    gameRequests: summarise(
      merge([...u.scoresAlone, ...games.flatMap((g) => [g.issue, g.progress, g.score])]),
    ),
  };
}

async function runSetup(setup: Setup, bareOrigin: string, trees: BuiltTree[]) {
  const bench: Bench = { under: [], bareOrigin };
  try {
    for (const tree of trees) {
      process.stdout.write(`[${setup.name}] starting and seeding ${tree.name}... `);
      const site = await startSite(setup, tree, { pgAdminUrl: PG_ADMIN_URL, logLevel: LOG_LEVEL });
      const poolGames = emptyGameStats();
      bench.under.push({
        site,
        routes: routesFor(site, { scoresPerSlice: SCORES_PER_SLICE, poolStats: poolGames }),
        poolGames,
        warmGames: emptyGameStats(),
        mixGames: emptyGameStats(SECONDS),
        scoresAlone: [],
        scoresBefore: await countRows(site.db, 'game_scores'),
      });
      console.log('done');
    }
    for (const u of bench.under) {
      process.stdout.write(
        `[${setup.name}] warming up ${u.site.tree.name} for ${WARMUP_SECONDS} s... `,
      );
      await runMix(bench, u, WARMUP_SECONDS, u.warmGames);
      console.log('done');
    }
    const alone: AloneRow[] = [];
    for (const route of bench.under[0]!.routes) {
      if (!ROUTE_FILTER.some((f) => route.name.includes(f))) continue;
      const row = await measureAlone(bench, route.name);
      alone.push(row);
      const figures = row.trees.map(
        (s, t) =>
          `${trees[t]!.name} ${s ? `${Math.round(s.rps)} req/s, p99 ${s.p99.toFixed(1)} ms` : '-'}`,
      );
      console.log(
        `[${setup.name}] ${route.name}: bare ${Math.round(row.bare.rps)} req/s; ${figures.join('; ')}`,
      );
    }
    const mix = MIX ? await measureMix(bench) : [];
    return report({
      title:
        `${setup.name}: ${CONNECTIONS} connections${setup.nodes === 2 ? ' split over 2 nodes' : ''}, ` +
        `${SECONDS} s per route and tree in ${SLICES} slices, node LOG_LEVEL=${LOG_LEVEL}`,
      treeNames: trees.map((t) => t.name),
      treeLabels: trees.map((t) => t.label),
      database: setup.database,
      alone,
      mix,
      checks: await Promise.all(bench.under.map(checkTree)),
    });
  } finally {
    for (const u of bench.under) await u.site.close();
  }
}

const unknown = SETUP_NAMES.filter((n) => !SETUPS[n]);
if (unknown.length > 0)
  throw new Error(
    `LOAD_SETUPS: unknown ${unknown.join(', ')} (known: ${Object.keys(SETUPS).join(', ')})`,
  );
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'grind-bench-load-'));
const all: string[] = [];
let ok = true;
try {
  const trees = [await buildThisTree(work)];
  if (!args['no-baseline']) trees.push(buildBaselineTree(args.baseline, work));
  const bare = await startBare();
  try {
    for (const name of SETUP_NAMES) {
      const result = await runSetup(SETUPS[name]!, bare.origin, trees);
      for (const l of result.lines) console.log(l);
      ok &&= result.ok;
      all.push(...result.lines);
    }
  } finally {
    await bare.stop();
  }
} finally {
  fs.rmSync(work, { recursive: true, force: true });
}
console.log('\n######## summary ########');
for (const l of all) console.log(l);
console.log(
  `\n${os.cpus().length} CPUs (${os.cpus()[0]?.model ?? 'unknown'}), load average ${os
    .loadavg()
    .map((n) => n.toFixed(1))
    .join(' ')}, Node ${process.version}`,
);
if (!ok) process.exitCode = 1;
