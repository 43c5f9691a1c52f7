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
  /** The game requests of the score route's pool and of the mix's players. */
  poolGames: GameStats;
  mixGames: GameStats;
  scoresAlone: Stats[];
}

async function runSetup(setup: Setup, bareOrigin: string, trees: BuiltTree[]) {
  const under: TreeUnderLoad[] = [];
  try {
    for (const tree of trees) {
      process.stdout.write(`[${setup.name}] starting and seeding ${tree.name}... `);
      const site = await startSite(setup, tree, { pgAdminUrl: PG_ADMIN_URL, logLevel: LOG_LEVEL });
      const poolGames = emptyGameStats();
      under.push({
        site,
        routes: routesFor(site, { scoresPerSlice: SCORES_PER_SLICE, poolStats: poolGames }),
        poolGames,
        mixGames: emptyGameStats(),
        scoresAlone: [],
      });
      console.log('done');
    }
    const scoresBefore = await Promise.all(under.map((u) => countRows(u.site.db, 'game_scores')));
    const settleAll = () =>
      settle([
        ...under.flatMap((u) => u.site.origins.map((o) => `${o}/healthz`)),
        `${bareOrigin}/bare`,
      ]);
    const measured = async (targets: Target[], seconds: number) => {
      const stats = await measure(targets, seconds);
      await settleAll();
      return stats;
    };

    /** Every mix route at once on one tree, with honest players beside them. */
    const runMix = async (u: TreeUnderLoad, seconds: number, games: GameStats) => {
      const routes = u.routes.filter((r) => r.weight > 0);
      const weights = routes.reduce((n, r) => n + r.weight, 0);
      const targets = routes.map((r) => ({
        origins: u.site.origins,
        connections: Math.max(
          u.site.origins.length,
          Math.round((CONNECTIONS * r.weight) / weights),
        ),
        request: r.request,
      }));
      const players = startPlayers(u.site.origins, u.site.visitor, PLAYERS, games);
      const stats = await measure(targets, seconds);
      await players.stop();
      await settleAll();
      return routes.map((r, i) => ({
        route: r,
        connections: targets[i]!.connections,
        stats: stats[i]!,
      }));
    };

    for (const u of under) {
      process.stdout.write(
        `[${setup.name}] warming up ${u.site.tree.name} for ${WARMUP_SECONDS} s... `,
      );
      await runMix(u, WARMUP_SECONDS, u.mixGames);
      console.log('done');
    }
    // The warm-up's players are counted in the checks, not in the mix's figures.
    const warmGames = under.map((u) => u.mixGames);
    for (const u of under) u.mixGames = emptyGameStats(SECONDS);

    const slice = SECONDS / SLICES;
    const alone: AloneRow[] = [];
    const names = under[0]!.routes
      .map((r) => r.name)
      .filter((n) => ROUTE_FILTER.some((f) => n.includes(f)));
    for (const name of names) {
      const bareSlices: Stats[] = [];
      const treeSlices: Stats[][] = under.map(() => []);
      let read = false;
      for (let i = 0; i < SLICES; i++) {
        const baseline = under[0]!.routes.find((r) => r.name === name)!.baseline;
        bareSlices.push(
          ...(await measured(
            [{ origins: [bareOrigin], connections: CONNECTIONS, request: BARE[baseline] }],
            slice,
          )),
        );
        // Trees in turn, first one then the other, so neither always follows the bare route.
        const order = i % 2 ? [...under.keys()].reverse() : [...under.keys()];
        for (const t of order) {
          const u = under[t]!;
          const route = u.routes.find((r) => r.name === name)!;
          read = route.read;
          const amount = route.prepareSlice ? await route.prepareSlice() : undefined;
          if (amount === 0) continue;
          if (amount !== undefined) await settleAll();
          const [stats] = await measured(
            [{ origins: u.site.origins, connections: CONNECTIONS, request: route.request, amount }],
            slice,
          );
          treeSlices[t]!.push(stats!);
          if (route.prepareSlice) u.scoresAlone.push(stats!);
        }
      }
      const row: AloneRow = {
        name,
        read,
        bare: summarise(merge(bareSlices)),
        trees: treeSlices.map((s) => (s.length > 0 ? summarise(merge(s)) : undefined)),
      };
      alone.push(row);
      console.log(
        `[${setup.name}] ${name}: bare ${Math.round(row.bare.rps)} req/s; ` +
          row.trees
            .map(
              (s, t) =>
                `${under[t]!.site.tree.name} ${s ? `${Math.round(s.rps)} req/s, p99 ${s.p99.toFixed(1)} ms` : '-'}`,
            )
            .join('; '),
      );
    }

    const mixes = [];
    if (MIX) for (const u of under) mixes.push(await runMix(u, SECONDS, u.mixGames));
    const mix: MixRow[] = [];
    if (MIX) {
      for (const [i, entry] of mixes[0]!.entries())
        mix.push({
          name: entry.route.name,
          read: entry.route.read,
          connections: entry.connections,
          trees: mixes.map((m) => summarise(m[i]!.stats)),
        });
      const gameRows: [string, 'issue' | 'progress' | 'score'][] = [
        ['players: POST /api/game-runs', 'issue'],
        ['players: progress reports', 'progress'],
        ['players: POST /api/game-scores', 'score'],
      ];
      for (const [name, kind] of gameRows)
        mix.push({
          name,
          read: false,
          connections: PLAYERS,
          trees: under.map((u) => summarise(u.mixGames[kind])),
        });
    }

    // What the load left behind must be exact.
    const checks: TreeChecks[] = [];
    for (const [t, u] of under.entries()) {
      const games = [u.poolGames, warmGames[t]!, ...(MIX ? [u.mixGames] : [])];
      const scores = merge([...u.scoresAlone, ...games.map((g) => g.score)]);
      const reports = merge(games.map((g) => g.progress));
      checks.push({
        votesStored: await countRows(u.site.db, 'meme_votes'),
        countMismatches: (await findCountMismatches(u.site.db)).length,
        scoresAccepted: scores.statusCounts.get(201) ?? 0,
        scoresRefused: scores.statusCounts.get(422) ?? 0,
        scoresStored: (await countRows(u.site.db, 'game_scores')) - scoresBefore[t]!,
        reportsAccepted: reports.statusCounts.get(200) ?? 0,
        reportsRefused: reports.statusCounts.get(422) ?? 0,
        refusals: [...games.flatMap((g) => [...g.refusals])]
          .map(([reason, n]) => `${reason} x${n}`)
          .join(', '),
        gameRequests: summarise(
          merge([...u.scoresAlone, ...games.flatMap((g) => [g.issue, g.progress, g.score])]),
        ),
      });
    }
    return report({
      title:
        `${setup.name}: ${CONNECTIONS} connections${setup.nodes === 2 ? ' split over 2 nodes' : ''}, ` +
        `${SECONDS} s per route and tree in ${SLICES} slices, node LOG_LEVEL=${LOG_LEVEL}`,
      treeNames: under.map((u) => u.site.tree.name),
      treeLabels: under.map((u) => u.site.tree.label),
      database: setup.database,
      alone,
      mix,
      checks,
    });
  } finally {
    for (const u of under) await u.site.close();
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
