// Load figures (`npm run bench:load`, issue 7): autocannon on loopback against real server
// processes (`node --import tsx src/server/main.ts`, as production runs), with a realistic mix:
// page loads of `/`, the leaderboard, the memes page, CSRF tokens, votes and score submissions
// of honest runs prepared up front. Three setups: one node on SQLite, one node on PostgreSQL,
// two nodes on one PostgreSQL (connections split between them, as a round-robin balancer would).
//
// For each setup: each route alone at full concurrency, in three slices that alternate with
// slices of a bare Fastify route (scripts/bench/bare-server.ts, the machine's ceiling), so the
// ratio of the two compares like with like on a machine whose other load comes and goes; then
// every route at once. Afterwards the stored data is checked: vote counts equal the votes
// stored, and every score answered 201 is stored.
//
//   npx tsx scripts/bench/load.ts
//
// Environment: LOAD_SECONDS (30) per measurement, LOAD_CONNECTIONS (100), LOAD_WARMUP_SECONDS
// (3), LOAD_SETUPS (sqlite,postgres,postgres-2), LOAD_ROUTES (parts of the route names to
// measure alone, e.g. leaderboard,memes; all by default), LOAD_MIX (0 skips the mixed run),
// LOAD_LOG_LEVEL (the nodes' LOG_LEVEL, default info as in production; the output goes
// nowhere), LOAD_CLIENT_DIR (a built client to serve instead of dist/client), LOAD_SCORE_POOL
// (honest runs prepared per setup), BENCH_DATABASE_URL or
// TEST_DATABASE_URL (the PostgreSQL server to create a database on; default
// postgres://postgres@127.0.0.1:5432/postgres).
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import autocannon from 'autocannon';
import type { Kysely } from 'kysely';
import { weekStartUtc } from '#shared/time.ts';
import { createDatabase } from '#server/db/create-database.ts';
import type { Database } from '#server/db/database.ts';
import { findCountMismatches } from '#server/memes/repository.ts';
import { playHonestly, type HonestRun } from '#test-support/honest-run.ts';
import { REPO_ROOT, startNode, type NodeProcess } from '#test-support/node-process.ts';
import { createScratchPostgres } from '#test-support/scratch-postgres.ts';
import { newSessionSecret, scratchDir } from '#test-support/scratch.ts';
import { seedBenchMemes } from './seed-memes.ts';

const env = process.env;
const SECONDS = Number(env.LOAD_SECONDS ?? 30);
const CONNECTIONS = Number(env.LOAD_CONNECTIONS ?? 100);
const WARMUP_SECONDS = Number(env.LOAD_WARMUP_SECONDS ?? 3);
const SETUP_NAMES = (env.LOAD_SETUPS ?? 'sqlite,postgres,postgres-2')
  .split(',')
  .map((s) => s.trim());
const LOG_LEVEL = env.LOAD_LOG_LEVEL ?? 'info';
/** Substrings of the route names to measure alone (all by default), e.g. `leaderboard`. */
const ROUTE_FILTER = (env.LOAD_ROUTES ?? '').split(',').map((s) => s.trim());
const MIX = env.LOAD_MIX !== '0';
/** Each route's time alone is cut in this many slices, each after a bare slice as long. */
const SLICES = 3;
const PG_ADMIN_URL =
  env.BENCH_DATABASE_URL ?? env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

const SEED_MEMES = 2_000;
const SEED_PLAYERS = 2_000;
const SEED_SCORES = 20_000;
const VISITORS = 5_000;
/** Votes go to the memes on everybody's first page: the contended case. */
const HOT_MEMES = 24;
/** Distinct seeds the prepared runs are played on; each run still has its own id. */
const RUN_SEEDS = 64;

const TARGET_READ_P99_MS = 50;
const TARGET_LEADERBOARD_RATIO = 0.8;

interface Setup {
  name: string;
  database: 'sqlite' | 'postgres';
  nodes: 1 | 2;
}

const SETUPS: Record<string, Setup> = {
  sqlite: { name: 'one node, SQLite', database: 'sqlite', nodes: 1 },
  postgres: { name: 'one node, PostgreSQL', database: 'postgres', nodes: 1 },
  'postgres-2': { name: 'two nodes, one PostgreSQL', database: 'postgres', nodes: 2 },
};

// ---- measuring ------------------------------------------------------------------------------

interface Target {
  /** Node origins; connections are spread over them in turn. */
  origins: string[];
  connections: number;
  request: autocannon.Request;
}

interface Stats {
  responses: number;
  /** Requests that got no answer (timeouts, resets), by the error's message. */
  errors: Map<string, number>;
  seconds: number;
  latencies: number[];
  statusCounts: Map<number, number>;
  /** CPU time the serving processes used meanwhile (µs; 0 where /proc is missing). */
  cpuMicros: number;
}

const count = <K>(map: Map<K, number>, key: K, n = 1) => map.set(key, (map.get(key) ?? 0) + n);

/** Several slices of one measurement as one. */
function merge(parts: Stats[]): Stats {
  const all: Stats = {
    responses: 0,
    errors: new Map(),
    seconds: 0,
    latencies: [],
    statusCounts: new Map(),
    cpuMicros: 0,
  };
  for (const p of parts) {
    all.responses += p.responses;
    all.seconds += p.seconds;
    all.cpuMicros += p.cpuMicros;
    for (const l of p.latencies) all.latencies.push(l);
    for (const [k, n] of p.errors) count(all.errors, k, n);
    for (const [k, n] of p.statusCounts) count(all.statusCounts, k, n);
  }
  return all;
}

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

function summarise(stats: Stats) {
  const sorted = [...stats.latencies].sort((a, b) => a - b);
  const ok = [...stats.statusCounts]
    .filter(([s]) => s >= 200 && s < 300)
    .reduce((n, [, c]) => n + c, 0);
  const unanswered = [...stats.errors.values()].reduce((n, c) => n + c, 0);
  return {
    rps: stats.responses / stats.seconds,
    cpuPerRequest: stats.cpuMicros / stats.responses,
    p50: percentile(sorted, 50),
    p99: percentile(sorted, 99),
    errors: unanswered + (stats.responses - ok),
    statuses: [
      ...[...stats.statusCounts].map(([s, c]) => `${s}x${c}`),
      ...[...stats.errors].map(([m, c]) => `${m}x${c}`),
    ].join(' '),
  };
}

/** Runs every target at once for `seconds`; one Stats per target. */
async function measure(targets: Target[], seconds: number): Promise<Stats[]> {
  const started = process.hrtime.bigint();
  const runs = targets.map((target) => {
    const stats: Stats = {
      responses: 0,
      errors: new Map(),
      seconds,
      latencies: [],
      statusCounts: new Map(),
      cpuMicros: 0,
    };
    const done = new Promise<void>((resolve, reject) => {
      const instance = autocannon(
        {
          // autocannon spreads its connections over several URLs; its types only name one.
          url: target.origins as unknown as string,
          connections: target.connections,
          duration: seconds,
          requests: [target.request],
          timeout: 10,
        },
        (error) => (error ? reject(error) : resolve()),
      );
      instance.on(
        'response',
        (_client: unknown, statusCode: number, _bytes: number, ms: number) => {
          stats.responses++;
          stats.latencies.push(ms);
          stats.statusCounts.set(statusCode, (stats.statusCounts.get(statusCode) ?? 0) + 1);
        },
      );
      instance.on('reqError', (error: Error) => count(stats.errors, error.message));
    });
    return { stats, done };
  });
  await Promise.all(runs.map((r) => r.done));
  const elapsed = Number(process.hrtime.bigint() - started) / 1e9;
  for (const r of runs) r.stats.seconds = Math.max(seconds, elapsed - 0.05);
  return runs.map((r) => r.stats);
}

// ---- processes ------------------------------------------------------------------------------

const CLOCK_TICKS_PER_SECOND = 100;

/**
 * CPU time (user + system, µs) the processes have used, from /proc: on a 2-core machine the
 * load generator competes with the server for the cores, so a route's CPU per request says
 * what it costs more steadily than its rate does. 0 where /proc is missing.
 */
function cpuMicros(pids: number[]): number {
  let total = 0;
  for (const pid of pids) {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, { encoding: 'utf8', flag: 'r' });
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    total += ((Number(fields[11]) + Number(fields[12])) * 1e6) / CLOCK_TICKS_PER_SECOND;
  }
  return total;
}
const hasProc = fs.existsSync('/proc/self/stat');

async function startBare(): Promise<{ child: ChildProcess; origin: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/bench/bare-server.ts'], {
    cwd: REPO_ROOT,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const line = await new Promise<string>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`bare server exited with ${code}`)));
    createInterface({ input: child.stdout! }).once('line', resolve);
  });
  return { child, origin: `http://127.0.0.1:${(JSON.parse(line) as { port: number }).port}` };
}

function newestMtime(target: string): number {
  const stat = fs.statSync(target, { throwIfNoEntry: false });
  if (!stat) return 0;
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const entry of fs.readdirSync(target))
    newest = Math.max(newest, newestMtime(path.join(target, entry)));
  return newest;
}

/**
 * The built client for page loads: dist/client when it is newer than its sources (as
 * scripts/start.ts decides), else a fresh build in a folder of our own, so a build here never
 * swaps files under someone else's running server.
 */
async function clientDist(): Promise<{ dir: string; cleanup(): void }> {
  if (env.LOAD_CLIENT_DIR) return { dir: path.resolve(env.LOAD_CLIENT_DIR), cleanup() {} };
  const dist = path.join(REPO_ROOT, 'dist/client');
  const built = fs.statSync(path.join(dist, 'index.html'), { throwIfNoEntry: false });
  const sources = ['src/client', 'src/shared', 'public', 'vite.config.ts'].map((p) =>
    path.join(REPO_ROOT, p),
  );
  if (built && Math.max(...sources.map(newestMtime)) <= built.mtimeMs)
    return { dir: dist, cleanup() {} };
  const dir = scratchDir('grind-bench-client-');
  console.log('building the client (dist/client is missing or stale)...');
  const { build } = await import('vite');
  await build({
    configFile: path.join(REPO_ROOT, 'vite.config.ts'),
    logLevel: 'warn',
    build: { outDir: dir, emptyOutDir: true },
  });
  return { dir, cleanup: () => fs.rmSync(dir, { recursive: true, force: true }) };
}

/**
 * Waits until each server answers /healthz quickly again: requests a finished measurement left
 * queued (connections are closed, the work is not) must not slow the next one.
 */
async function settle(urls: string[]): Promise<void> {
  const deadline = Date.now() + 20_000;
  for (const url of urls) {
    let quick = 0;
    while (quick < 3 && Date.now() < deadline) {
      const started = performance.now();
      await fetch(url).then(
        (r) => r.arrayBuffer(),
        () => undefined,
      );
      quick = performance.now() - started < 10 ? quick + 1 : 0;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
}

// ---- data -----------------------------------------------------------------------------------

const runId = () => randomBytes(16).toString('base64url');

/** Memes, a busy leaderboard week, and `runs` unplayed runs issued a minute ago. */
async function seed(db: Kysely<Database>, runs: number, plays: HonestRun[]): Promise<string[]> {
  const now = Date.now();
  await seedBenchMemes(db, SEED_MEMES);
  // A week's worth of entries: the standings query ranks all of them.
  const week = weekStartUtc(now);
  for (let offset = 0; offset < SEED_SCORES; offset += 500) {
    const batch = Array.from({ length: Math.min(500, SEED_SCORES - offset) }, (_, j) => {
      const i = offset + j;
      return { id: runId(), i, play: plays[i % plays.length]! };
    });
    await db
      .insertInto('game_runs')
      .values(
        batch.map(({ id, play }) => ({
          id,
          seed: play.seed,
          user_id: null,
          issued_at: now - 3_600_000,
          verified_at: now - 3_500_000,
          inputs: JSON.stringify(play.inputs),
          steps: play.result.steps,
          score: play.result.score,
          coins: play.result.coins,
          obstacles_passed: 0,
          score_submitted_at: now - 3_500_000,
        })),
      )
      .execute();
    await db
      .insertInto('game_scores')
      .values(
        batch.map(({ id, i }) => {
          const score = (i * 7919) % 5000;
          return {
            run_id: id,
            user_id: null,
            player_key: `n:seeded_player_${i % SEED_PLAYERS}`,
            player_name: `seeded_player_${i % SEED_PLAYERS}`,
            score,
            level: 1 + Math.floor(score / 100),
            tasks_completed: score,
            power_ups_collected: 0,
            game_time: 60,
            week_start: week,
            created_at: Math.max(week, now - 3_500_000) + i,
          };
        }),
      )
      .execute();
  }
  const ids: string[] = [];
  for (let offset = 0; offset < runs; offset += 1000) {
    const batch = Array.from({ length: Math.min(1000, runs - offset) }, (_, j) => ({
      id: runId(),
      seed: plays[(offset + j) % plays.length]!.seed,
      user_id: null,
      issued_at: now - 60_000,
    }));
    await db.insertInto('game_runs').values(batch).execute();
    ids.push(...batch.map((b) => b.id));
  }
  return ids;
}

// ---- the routes -----------------------------------------------------------------------------

interface RouteDef {
  name: string;
  read: boolean;
  /** Share of the connections in the mix. */
  weight: number;
  baseline: 'GET' | 'POST';
  request: autocannon.Request;
}

function routes(site: {
  csrfCookie: string;
  /** A signed-in member's session cookie (`sid=...`). */
  memberCookie: string;
  csrfToken: string;
  visitors: { cookie: string; ip: string }[];
  hotMemes: number[];
  runIds: string[];
  plays: HonestRun[];
  onRunsExhausted(): void;
}): { defs: RouteDef[]; scoresSent(): number } {
  let votes = 0;
  let scores = 0;
  const bodies = site.plays.map((p) => ({
    prefix: `{"playerName":"`,
    rest:
      `","score":${p.result.score},"level":${p.result.level},"tasksCompleted":${p.result.tasksCompleted},` +
      `"powerUpsCollected":${p.result.powerUpsCollected},"gameTime":${p.result.gameTime},` +
      `"inputs":${JSON.stringify(p.inputs)},"runId":"`,
  }));
  const defs: RouteDef[] = [
    {
      name: 'GET /',
      read: true,
      weight: 10,
      baseline: 'GET',
      request: { method: 'GET', path: '/' },
    },
    {
      name: 'GET /api/leaderboard',
      read: true,
      weight: 25,
      baseline: 'GET',
      request: { method: 'GET', path: '/api/leaderboard' },
    },
    {
      name: 'GET /api/memes',
      read: true,
      weight: 30,
      baseline: 'GET',
      request: { method: 'GET', path: '/api/memes' },
    },
    {
      // A member's read: the session look-up is what it costs beyond a visitor's (issue 20).
      name: 'GET /api/auth/me (member)',
      read: true,
      weight: 10,
      baseline: 'GET',
      request: { method: 'GET', path: '/api/auth/me', headers: { cookie: site.memberCookie } },
    },
    {
      name: 'GET /api/csrf-token',
      read: true,
      weight: 10,
      baseline: 'GET',
      request: { method: 'GET', path: '/api/csrf-token' },
    },
    {
      name: 'POST /api/memes/:id/vote',
      read: false,
      weight: 15,
      baseline: 'POST',
      request: {
        method: 'POST',
        setupRequest(req) {
          votes++;
          const visitor = site.visitors[votes % site.visitors.length]!;
          const memeId =
            site.hotMemes[(Math.imul(votes, 2654435761) >>> 0) % site.hotMemes.length]!;
          req.path = `/api/memes/${memeId}/vote`;
          req.headers = {
            'content-type': 'application/json',
            'x-csrf-token': site.csrfToken,
            cookie: visitor.cookie,
            'x-forwarded-for': visitor.ip,
          };
          req.body = votes % 3 === 0 ? '{"voteType":"down"}' : '{"voteType":"up"}';
          return req;
        },
      },
    },
    {
      name: 'POST /api/game-scores',
      read: false,
      weight: 10,
      baseline: 'POST',
      request: {
        method: 'POST',
        path: '/api/game-scores',
        setupRequest(req) {
          const i = scores++;
          if (i === site.runIds.length) site.onRunsExhausted();
          const index = i % site.runIds.length;
          const body = bodies[index % bodies.length]!;
          req.headers = {
            'content-type': 'application/json',
            // One address per round: a visitor plays a game a minute or so.
            'x-forwarded-for': `10.${100 + ((index >> 16) & 127)}.${(index >> 8) & 255}.${index & 255}`,
          };
          req.body = `${body.prefix}player_${i % 3000}${body.rest}${site.runIds[index]}"}`;
          return req;
        },
      },
    },
  ];
  return { defs, scoresSent: () => scores };
}

// ---- one setup ------------------------------------------------------------------------------

interface Row {
  name: string;
  connections: number;
  s: ReturnType<typeof summarise>;
  /** The bare route's rate in the slices beside this route's. */
  bare?: number;
  ratio?: number;
  /** The bare route's CPU per answer over this route's: the rate ratio if the server alone were busy. */
  cpuRatio?: number;
  /** For a read: the bare server sending a copy of the route's answer, beside it. */
  copy?: { bytes: number; rps: number; ratio: number; cpuRatio: number };
}

/** Stores the route's answer on the bare server; the request that fetches it back from there. */
async function copyToBare(
  bare: string,
  origin: string,
  def: RouteDef,
): Promise<{ request: autocannon.Request; bytes: number }> {
  const body = await (await fetch(`${origin}${def.request.path}`)).text();
  const name = encodeURIComponent(def.name);
  const stored = await fetch(`${bare}/bare-copy/${name}`, {
    method: 'PUT',
    headers: { 'content-type': 'text/plain' },
    body,
  });
  if (!stored.ok) throw new Error(`the bare server did not take a copy of ${def.name}`);
  return {
    request: { method: 'GET', path: `/bare-copy/${name}` },
    bytes: Buffer.byteLength(body),
  };
}

async function runSetup(
  setup: Setup,
  bare: string,
  barePid: number,
  client: string,
): Promise<{ ok: boolean; lines: string[] }> {
  const cleanups: (() => unknown)[] = [];
  const lines: string[] = [];
  try {
    const secret = newSessionSecret();
    const pgDb =
      setup.database === 'postgres'
        ? await createScratchPostgres(PG_ADMIN_URL, 'grind_bench')
        : undefined;
    if (pgDb) cleanups.push(() => pgDb.drop());
    const nodeEnv = () => {
      const dataDir = scratchDir('grind-bench-node-');
      cleanups.push(() => fs.rmSync(dataDir, { recursive: true, force: true }));
      return {
        DATA_DIR: dataDir,
        DATABASE_URL: pgDb?.url,
        SESSION_SECRET: secret,
        // Visitors come from many addresses, as behind a balancer; per-address limits then
        // apply per visitor rather than to the whole benchmark.
        TRUST_PROXY: 'true',
        LOG_LEVEL,
        CLIENT_DIST_DIR: client,
      };
    };
    const first = nodeEnv();
    const nodes: NodeProcess[] = [];
    nodes.push(await startNode({ env: first, keepOutput: 0 }));
    cleanups.push(() => nodes.map((n) => n.stop()));
    if (setup.nodes === 2) nodes.push(await startNode({ env: nodeEnv(), keepOutput: 0 }));
    const origins = nodes.map((n) => n.origin);

    const db = createDatabase(
      pgDb
        ? { kind: 'postgres', url: pgDb.url }
        : { kind: 'sqlite', file: path.join(first.DATA_DIR, 'app.db') },
    );
    cleanups.push(() => db.destroy());
    const plays = Array.from({ length: RUN_SEEDS }, (_, i) =>
      playHonestly('', ((i + 1) * 2654435761) >>> 0, 60),
    );
    // Enough unplayed runs for score submissions at several thousand a second in every phase.
    const pool = Number(env.LOAD_SCORE_POOL ?? Math.ceil((SECONDS * 2 + WARMUP_SECONDS) * 3000));
    process.stdout.write(
      `[${setup.name}] seeding ${SEED_MEMES} memes, ${SEED_SCORES} scores, ${pool} runs... `,
    );
    const runIds = await seed(db, pool, plays);
    console.log('done');

    const csrfRes = await fetch(`${origins[0]}/api/csrf-token`);
    const csrfCookie = csrfRes.headers.getSetCookie()[0]!.split(';', 1)[0]!;
    const { csrfToken } = (await csrfRes.json()) as { csrfToken: string };
    const registered = await fetch(`${origins[0]}/api/auth/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-forwarded-for': '10.250.0.1' },
      body: JSON.stringify({ username: 'bench_member', password: 'bench-password' }),
    });
    if (registered.status !== 201) throw new Error(`register answered ${registered.status}`);
    const memberCookie = registered.headers
      .getSetCookie()
      .map((c) => c.split(';', 1)[0]!)
      .find((c) => c.startsWith('sid='))!;
    const page = (await (await fetch(`${origins[0]}/api/memes`)).json()) as {
      memes: { id: number }[];
    };
    let exhausted = false;
    const { defs, scoresSent } = routes({
      csrfCookie,
      memberCookie,
      csrfToken,
      visitors: Array.from({ length: VISITORS }, (_, i) => ({
        cookie: `${csrfCookie}; voted=1`,
        ip: `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`,
      })),
      hotMemes: page.memes.slice(0, HOT_MEMES).map((m) => m.id),
      runIds,
      plays,
      onRunsExhausted: () => (exhausted = true),
    });
    const scoresBefore = await countScores(db);
    let scoresAnswered = 0;
    const scoreDef = defs.find((d) => d.name.includes('game-scores'))!;
    const countScoreAnswers = (stats: Stats) =>
      (scoresAnswered += stats.statusCounts.get(201) ?? 0);

    const weightSum = defs.reduce((n, d) => n + d.weight, 0);
    const mixTargets = defs.map((d) => ({
      origins,
      connections: Math.max(origins.length, Math.round((CONNECTIONS * d.weight) / weightSum)),
      request: d.request,
    }));

    /** A measurement, then a pause until every server has worked off what it still holds. */
    const nodePids = nodes.map((n) => n.child.pid!);
    const measured = async (targets: Target[], seconds: number) => {
      const pids = targets.every((t) => t.origins[0] === bare) ? [barePid] : nodePids;
      const before = hasProc ? cpuMicros(pids) : 0;
      const stats = await measure(targets, seconds);
      // Shared by the targets in proportion to their answers (exact for a single target).
      const used = hasProc ? cpuMicros(pids) - before : 0;
      const answers = stats.reduce((n, s) => n + s.responses, 0);
      for (const s of stats) s.cpuMicros = answers ? (used * s.responses) / answers : 0;
      await settle([...origins.map((o) => `${o}/healthz`), `${bare}/bare`]);
      return stats;
    };

    process.stdout.write(`[${setup.name}] warming up ${WARMUP_SECONDS} s... `);
    const warm = await measured(mixTargets, WARMUP_SECONDS);
    countScoreAnswers(warm[defs.indexOf(scoreDef)]!);
    console.log('done');

    // Each route alone, in slices that alternate with the bare route's, so both see the same
    // machine (other processes come and go) and the ratio compares like with like. A read is
    // also set beside the bare server sending a copy of its answer: the small bare answer
    // says what the machine can do at most, the copy what the route's own work costs.
    const bareRequests: Record<'GET' | 'POST', autocannon.Request> = {
      GET: { method: 'GET', path: '/bare' },
      POST: {
        method: 'POST',
        path: '/bare',
        headers: { 'content-type': 'application/json' },
        body: '{"voteType":"up"}',
      },
    };
    const slice = SECONDS / SLICES;
    const alone: Row[] = [];
    const bareParts: Record<'GET' | 'POST', Stats[]> = { GET: [], POST: [] };
    const one = (request: autocannon.Request, at = origins, seconds = slice) =>
      measured([{ origins: at, connections: CONNECTIONS, request }], seconds).then(([s]) => s!);
    for (const def of defs.filter((d) => ROUTE_FILTER.some((f) => d.name.includes(f)))) {
      const copy = def.read ? await copyToBare(bare, origins[0]!, def) : undefined;
      const bareSlices: Stats[] = [];
      const copySlices: Stats[] = [];
      const routeSlices: Stats[] = [];
      for (let i = 0; i < SLICES; i++) {
        // With a copy to measure, each baseline gets half a slice, so a route costs the same time.
        bareSlices.push(await one(bareRequests[def.baseline], [bare], copy ? slice / 2 : slice));
        routeSlices.push(await one(def.request));
        if (copy) copySlices.push(await one(copy.request, [bare], slice / 2));
      }
      bareParts[def.baseline].push(...bareSlices);
      const stats = merge(routeSlices);
      if (def === scoreDef) countScoreAnswers(stats);
      const s = summarise(stats);
      const bareS = summarise(merge(bareSlices));
      const bareRps = bareS.rps;
      const copyS = copy ? summarise(merge(copySlices)) : undefined;
      const copyRps = copyS?.rps;
      alone.push({
        name: def.name,
        connections: CONNECTIONS,
        s,
        bare: bareRps,
        ratio: s.rps / bareRps,
        cpuRatio: bareS.cpuPerRequest / s.cpuPerRequest,
        ...(copy && copyS
          ? {
              copy: {
                bytes: copy.bytes,
                rps: copyS.rps,
                ratio: s.rps / copyS.rps,
                cpuRatio: copyS.cpuPerRequest / s.cpuPerRequest,
              },
            }
          : {}),
      });
      console.log(
        `[${setup.name}] ${def.name}: ${Math.round(s.rps)} req/s (bare ${Math.round(bareRps)}` +
          `${copyRps ? `, bare with the same ${copy!.bytes} bytes ${Math.round(copyRps)}` : ''}), p99 ${s.p99.toFixed(1)} ms`,
      );
    }
    for (const method of ['GET', 'POST'] as const) {
      if (bareParts[method].length > 0) {
        alone.unshift({
          name: `bare ${method} /bare`,
          connections: CONNECTIONS,
          s: summarise(merge(bareParts[method])),
        });
      }
    }
    const mixStats = MIX ? await measured(mixTargets, SECONDS) : [];
    if (MIX) countScoreAnswers(mixStats[defs.indexOf(scoreDef)]!);
    const mix: Row[] = mixStats.map((stats, i) => ({
      name: defs[i]!.name,
      connections: mixTargets[i]!.connections,
      s: summarise(stats),
    }));

    // What the load left behind must be exact.
    const mismatches = await findCountMismatches(db);
    const scoresStored = (await countScores(db)) - scoresBefore;
    const votesStored = await db
      .selectFrom('meme_votes')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();

    const fmt = (n: number, digits = 1) => (Number.isFinite(n) ? n.toFixed(digits) : '-');
    const header = `${'route'.padEnd(28)}${'conns'.padStart(6)}${'req/s'.padStart(9)}${'p50 ms'.padStart(8)}${'p99 ms'.padStart(8)}${'errors'.padStart(8)}`;
    const rate = (n: number) => Math.round(n).toLocaleString('en-US');
    const pct = (n: number | undefined, width: number) =>
      (n !== undefined && Number.isFinite(n) ? `${Math.round(n * 100)}%` : '').padStart(width);
    const line = (r: Row, withRatio: boolean) =>
      `${r.name.padEnd(28)}${String(r.connections).padStart(6)}${rate(r.s.rps).padStart(9)}` +
      `${fmt(r.s.p50).padStart(8)}${fmt(r.s.p99).padStart(8)}${String(r.s.errors).padStart(8)}` +
      (withRatio ? fmt(r.s.cpuPerRequest).padStart(8) : '') +
      (withRatio && r.ratio !== undefined
        ? `${rate(r.bare!).padStart(11)}${pct(r.ratio, 9)}${pct(r.cpuRatio, 9)}`
        : '') +
      (withRatio && r.copy
        ? `${rate(r.copy.bytes).padStart(8)}${rate(r.copy.rps).padStart(10)}${pct(r.copy.ratio, 9)}${pct(r.copy.cpuRatio, 9)}`
        : '') +
      (r.s.errors > 0 ? `  (${r.s.statuses})` : '');
    lines.push(
      '',
      `== ${setup.name}: ${CONNECTIONS} connections${setup.nodes === 2 ? ' split over 2 nodes' : ''}, ${SECONDS} s per measurement, node LOG_LEVEL=${LOG_LEVEL} ==`,
      'each route alone:',
      `${header}${'µs/req'.padStart(8)}${'bare req/s'.padStart(11)}${'vs bare'.padStart(9)}${'cpu'.padStart(9)}` +
        `${'bytes'.padStart(8)}${'copy req/s'.padStart(10)}${'vs copy'.padStart(9)}${'cpu'.padStart(9)}`,
      `  (µs/req: the server's CPU per answer; bare: a bare Fastify route's small JSON; copy: the bare` +
        ` server sending this route's own answer; vs: by rate, and by CPU per answer)`,
      ...alone.map((r) => line(r, true)),
      'all routes at once:',
      header,
      ...mix.map((r) => line(r, false)),
      `${'total'.padEnd(28)}${String(mix.reduce((n, r) => n + r.connections, 0)).padStart(6)}${Math.round(
        mix.reduce((n, r) => n + r.s.rps, 0),
      )
        .toLocaleString('en-US')
        .padStart(9)}`,
    );
    const reads = [...alone.filter((r) => r.ratio !== undefined), ...mix].filter(
      (r) => defs.find((d) => d.name === r.name)?.read,
    );
    const leaderboard = alone.find((r) => r.name === 'GET /api/leaderboard');
    const errors = [...alone, ...mix].reduce((n, r) => n + r.s.errors, 0);
    const checks: [string, boolean][] = [
      ['zero errors', errors === 0],
      [
        `reads p99 < ${TARGET_READ_P99_MS} ms (alone and mixed)`,
        reads.every((r) => r.s.p99 < TARGET_READ_P99_MS),
      ],
      ...(leaderboard
        ? [
            [
              `leaderboard >= ${TARGET_LEADERBOARD_RATIO * 100}% of the bare route sending the same answer (${Math.round((leaderboard.copy?.ratio ?? 0) * 100)}%)`,
              (leaderboard.copy?.ratio ?? 0) >= TARGET_LEADERBOARD_RATIO,
            ] as [string, boolean],
            [
              `leaderboard >= ${TARGET_LEADERBOARD_RATIO * 100}% of the bare route's small JSON (${Math.round(leaderboard.ratio! * 100)}%)`,
              leaderboard.ratio! >= TARGET_LEADERBOARD_RATIO,
            ] as [string, boolean],
          ]
        : []),
      [`vote counts exact (${Number(votesStored.n)} votes stored)`, mismatches.length === 0],
      // Requests still in flight when a measurement ends are stored but not counted as answered.
      [
        `every score answered 201 stored (${scoresAnswered} answered, ${scoresStored} stored, ${scoresSent()} sent)`,
        scoresAnswered <= scoresStored && scoresStored <= scoresSent(),
      ],
      ['enough prepared runs', !exhausted],
    ];
    for (const [label, ok] of checks) lines.push(`  ${ok ? 'met    ' : 'NOT MET'}  ${label}`);
    for (const l of lines) console.log(l);
    return { ok: checks.every(([, ok]) => ok), lines };
  } finally {
    for (const cleanup of cleanups.reverse()) {
      await Promise.all([cleanup()].flat() as unknown[]).catch((error: unknown) =>
        console.error(error),
      );
    }
  }
}

async function countScores(db: Kysely<Database>): Promise<number> {
  const row = await db
    .selectFrom('game_scores')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

// ---- main -----------------------------------------------------------------------------------

const unknown = SETUP_NAMES.filter((n) => !SETUPS[n]);
if (unknown.length > 0)
  throw new Error(
    `LOAD_SETUPS: unknown ${unknown.join(', ')} (known: ${Object.keys(SETUPS).join(', ')})`,
  );
const client = await clientDist();
const bare = await startBare();
const all: string[] = [];
let ok = true;
try {
  for (const name of SETUP_NAMES) {
    const result = await runSetup(SETUPS[name]!, bare.origin, bare.child.pid!, client.dir);
    ok &&= result.ok;
    all.push(...result.lines);
  }
} finally {
  bare.child.kill('SIGTERM');
  client.cleanup();
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
