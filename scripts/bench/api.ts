// API throughput on loopback (`npm run bench:api`): GET /api/memes (a page of 24 from 10,000
// memes) and POST /api/memes/:id/vote, each beside a bare Fastify JSON route measured in the
// same run, so the ratio says what the app costs on this machine. Servers run in child
// processes so autocannon does not share their event loop. Afterwards every meme's counts are
// checked against the votes stored.
//
//   npx tsx scripts/bench/api.ts [--duration 10] [--connections 50] [--db sqlite|postgres]
//
// --db postgres uses BENCH_DATABASE_URL (or TEST_DATABASE_URL) to create a database for the run.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { parseArgs } from 'node:util';
import autocannon, { type Result } from 'autocannon';
import Fastify from 'fastify';
import pg from 'pg';
import { buildApp } from '#server/app.ts';
import { loadConfig, type AppConfig } from '#server/config.ts';
import { createDatabase } from '#server/db/create-database.ts';
import { findCountMismatches } from '#server/memes/repository.ts';
import { seedBenchMemes } from './seed-memes.ts';

const MEMES = 10_000;
const VISITORS = 2_000;
/** Votes go to the newest memes, the ones on everybody's first page: the contended case. */
const HOT_MEMES = 100;
const TARGET_PAGE_RATIO = 0.5;
/** Each round's slice per route; the load of other processes on a shared machine drifts. */
const ROUND_SECONDS = 2;
const TARGET_VOTES_PER_SECOND = 2_000;

const { values: args } = parseArgs({
  options: {
    serve: { type: 'string' },
    duration: { type: 'string', default: '10' },
    connections: { type: 'string', default: '50' },
    db: { type: 'string', default: 'sqlite' },
  },
});

// ---- child process: one server, reports its port on stdout ---------------------------------

if (args.serve === 'bare') {
  const bare = Fastify({ logger: false });
  bare.get('/bare', async () => ({ hello: 'world' }));
  bare.post('/bare', async (request) => ({ ok: true, got: request.body }));
  // The app's first page as text (handed over by the parent): what sending that many bytes
  // costs with no framework work at all.
  const page = process.env.BENCH_PAGE ?? '{}';
  bare.get('/bare-page', async (_request, reply) => reply.type('application/json').send(page));
  await bare.listen({ port: 0, host: '127.0.0.1' });
  console.log(JSON.stringify({ port: (bare.server.address() as { port: number }).port }));
} else if (args.serve === 'app') {
  const config = JSON.parse(process.env.BENCH_CONFIG!) as AppConfig;
  const app = await buildApp(config, { logger: false });
  await app.listen({ port: 0, host: '127.0.0.1' });
  console.log(JSON.stringify({ port: (app.server.address() as { port: number }).port }));
  process.on('SIGTERM', () => void app.close().then(() => process.exit(0)));
} else {
  await main();
}

// ---- the run ---------------------------------------------------------------------------------

async function startServer(
  kind: 'bare' | 'app',
  config?: AppConfig,
  page?: string,
): Promise<{ child: ChildProcess; origin: string }> {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', import.meta.filename, '--serve', kind],
    {
      env: { ...process.env, BENCH_CONFIG: JSON.stringify(config ?? {}), BENCH_PAGE: page ?? '' },
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  const line = await new Promise<string>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`${kind} server exited with ${code}`)));
    createInterface({ input: child.stdout! }).once('line', resolve);
  });
  return { child, origin: `http://127.0.0.1:${(JSON.parse(line) as { port: number }).port}` };
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
}

function cannon(opts: autocannon.Options): Promise<Result> {
  return new Promise((resolve, reject) => {
    autocannon(opts, (error, result) => (error ? reject(error) : resolve(result)));
  });
}

interface Target {
  name: string;
  opts: autocannon.Options;
}

interface Row {
  name: string;
  /** Answers in the measured rounds, all 2xx. */
  total: number;
  seconds: number;
  /** Median of the rounds' p99 latencies, in ms. */
  p99: number;
}

function check(name: string, result: Result): void {
  const { non2xx, errors, timeouts } = result;
  if (non2xx || errors || timeouts) {
    throw new Error(`${name}: ${non2xx} non-2xx, ${errors} errors, ${timeouts} timeouts`);
  }
}

/**
 * Every route is measured in short rounds taken in turn rather than one after another, so a
 * burst of work elsewhere on the machine falls on all of them alike and the ratios hold.
 */
async function measureInterleaved(
  targets: Target[],
  connections: number,
  seconds: number,
): Promise<Row[]> {
  for (const target of targets) {
    check(target.name, await cannon({ ...target.opts, connections, duration: ROUND_SECONDS }));
  }
  const rows = targets.map((t) => ({ name: t.name, total: 0, seconds: 0, p99s: [] as number[] }));
  const rounds = Math.max(1, Math.round(seconds / ROUND_SECONDS));
  for (let round = 0; round < rounds; round++) {
    for (const [i, target] of targets.entries()) {
      const result = await cannon({ ...target.opts, connections, duration: ROUND_SECONDS });
      check(target.name, result);
      const row = rows[i]!;
      row.total += result.requests.total;
      row.seconds += result.duration;
      row.p99s.push(result.latency.p99);
    }
  }
  return rows.map(({ p99s, ...row }) => {
    const sorted = [...p99s].sort((x, y) => x - y);
    return { ...row, p99: sorted[Math.floor(sorted.length / 2)]! };
  });
}

async function prepareDatabase(): Promise<{
  database: AppConfig['database'];
  drop(): Promise<void>;
}> {
  if (args.db === 'sqlite') return { database: { kind: 'sqlite', file: '' }, drop: async () => {} };
  if (args.db !== 'postgres') throw new Error('--db must be sqlite or postgres');
  const adminUrl = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL;
  if (!adminUrl) throw new Error('--db postgres needs BENCH_DATABASE_URL or TEST_DATABASE_URL');
  const name = `grind_bench_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    database: { kind: 'postgres', url: url.toString() },
    async drop() {
      const client = new pg.Client({ connectionString: adminUrl });
      await client.connect();
      await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await client.end();
    },
  };
}

async function main(): Promise<void> {
  const loadAtStart = os.loadavg()[0]!.toFixed(1);
  const duration = Number(args.duration);
  const connections = Number(args.connections);
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'grind-bench-'));
  const prepared = await prepareDatabase();
  const config: AppConfig = {
    ...loadConfig({
      NODE_ENV: 'production',
      DATA_DIR: dataDir,
      SESSION_SECRET: randomBytes(32).toString('base64url'),
      LOG_LEVEL: 'silent',
      // Each synthetic visitor comes from its own address, as real ones do; the per-IP vote
      // limit then applies per visitor, not to the whole benchmark.
      TRUST_PROXY: 'true',
    }),
    clientDistDir: undefined,
  };
  if (prepared.database.kind === 'postgres') config.database = prepared.database;
  const servers: ChildProcess[] = [];
  try {
    console.log(`seeding ${MEMES.toLocaleString('en-US')} memes on ${config.database.kind}...`);
    await seed(config);

    const site = await startServer('app', config);
    servers.push(site.child);
    const first = await fetch(`${site.origin}/api/memes`);
    const pageText = await first.text();
    const page = JSON.parse(pageText) as { memes: { id: number }[] };
    if (first.status !== 200 || page.memes.length !== 24)
      throw new Error('the memes page is not 24 memes');
    const bare = await startServer('bare', undefined, pageText);
    servers.push(bare.child);
    const hot = page.memes[0]!.id;

    // One CSRF cookie and token for all, and an address per visitor (a visitor's vote is its address's).
    const csrfRes = await fetch(`${site.origin}/api/csrf-token`);
    const csrfCookie = csrfRes.headers.getSetCookie()[0]!.split(';', 1)[0]!;
    const { csrfToken } = (await csrfRes.json()) as { csrfToken: string };
    const visitors = Array.from({ length: VISITORS }, (_, i) => ({
      cookie: `${csrfCookie}; voted=1`,
      ip: `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`,
    }));
    let n = 0;
    const voteRequest: autocannon.Request = {
      method: 'POST',
      setupRequest(req) {
        n++;
        const visitor = visitors[n % VISITORS]!;
        const memeId = hot - ((Math.imul(n, 2654435761) >>> 0) % HOT_MEMES);
        req.path = `/api/memes/${memeId}/vote`;
        req.headers = {
          'content-type': 'application/json',
          'x-csrf-token': csrfToken,
          cookie: visitor.cookie,
          'x-forwarded-for': visitor.ip,
        };
        req.body = n % 3 === 0 ? '{"voteType":"down"}' : '{"voteType":"up"}';
        return req;
      },
    };

    const targets: Target[] = [
      { name: 'bare GET /bare', opts: { url: `${bare.origin}/bare` } },
      { name: 'GET /api/memes (24 of 10,000)', opts: { url: `${site.origin}/api/memes` } },
      {
        name: `bare GET, same page (${Math.round(pageText.length / 1024)} KB)`,
        opts: { url: `${bare.origin}/bare-page` },
      },
      // The same app with no database work: the floor its shared plumbing (hooks, security
      // headers, cookies) sets for any route, to read the memes figure against.
      { name: 'GET /healthz (same app, no DB)', opts: { url: `${site.origin}/healthz` } },
      {
        name: 'bare POST /bare (JSON)',
        opts: {
          url: `${bare.origin}/bare`,
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: '{"voteType":"up"}',
        },
      },
      { name: 'POST /api/memes/:id/vote', opts: { url: site.origin, requests: [voteRequest] } },
    ];
    const [bareGet, memesGet, barePage, appFloor, barePost, votes] = await measureInterleaved(
      targets,
      connections,
      duration,
    );
    const voteTotal = votes!.total;

    await stop(site.child);
    const db = createDatabase(config.database);
    const mismatches = await findCountMismatches(db);
    const stored = await db
      .selectFrom('meme_votes')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    await db.destroy();

    const rps = (r: Row) => r.total / r.seconds;
    console.log('');
    console.log(
      `${'route'.padEnd(34)}${'req/s'.padStart(10)}${'p99 ms'.padStart(9)}${'vs bare'.padStart(9)}`,
    );
    const line = (row: Row, baseline: Row) =>
      console.log(
        `${row.name.padEnd(34)}${Math.round(rps(row)).toLocaleString('en-US').padStart(10)}` +
          `${row.p99.toFixed(1).padStart(9)}` +
          `${row === baseline ? '' : `${Math.round((rps(row) / rps(baseline)) * 100)}%`.padStart(9)}`,
      );
    line(bareGet!, bareGet!);
    line(memesGet!, bareGet!);
    line(barePage!, bareGet!);
    line(appFloor!, bareGet!);
    line(barePost!, barePost!);
    line(votes!, barePost!);
    console.log('');
    console.log(
      `${connections} connections, ${duration} s per route in ${ROUND_SECONDS} s rounds taken in turn ` +
        `(p99: median of the rounds), ${config.database.kind}, ` +
        `${os.cpus().length} CPUs, Node ${process.version}, load average ${loadAtStart} at start, ` +
        `${os.loadavg()[0]!.toFixed(1)} at end`,
    );
    console.log(
      `votes: ${voteTotal.toLocaleString('en-US')} answered (+ warm-up), ` +
        `${Number(stored.n).toLocaleString('en-US')} stored, counts ${mismatches.length === 0 ? 'exact on every meme' : `WRONG on ${mismatches.length} memes`}`,
    );
    const pageRatio = rps(memesGet!) / rps(bareGet!);
    const samePageRatio = rps(memesGet!) / rps(barePage!);
    const results = [
      [
        `memes page >= ${TARGET_PAGE_RATIO * 100}% of the bare route sending the same page (${Math.round(samePageRatio * 100)}%)`,
        samePageRatio >= TARGET_PAGE_RATIO,
      ],
      [
        `memes page >= ${TARGET_PAGE_RATIO * 100}% of the bare route's small JSON (${Math.round(pageRatio * 100)}%)`,
        pageRatio >= TARGET_PAGE_RATIO,
      ],
      [
        `votes >= ${TARGET_VOTES_PER_SECOND.toLocaleString('en-US')}/s`,
        rps(votes!) >= TARGET_VOTES_PER_SECOND,
      ],
      ['counts exact', mismatches.length === 0],
    ] as const;
    for (const [label, ok] of results) console.log(`  target ${label}: ${ok ? 'met' : 'NOT met'}`);
    if (results.some(([, ok]) => !ok)) process.exitCode = 1;
  } finally {
    for (const child of servers) await stop(child);
    await prepared.drop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

/** The app's own migrations, then memes straight into the table in large batches. */
async function seed(config: AppConfig): Promise<void> {
  const app = await buildApp(config, { logger: false });
  try {
    await seedBenchMemes(app.deps.db, MEMES);
  } finally {
    await app.close();
  }
}
