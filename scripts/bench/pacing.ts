// `npm run bench:pacing`: what a running round's progress report costs the server and the
// database (docs/decisions/012), beside a baseline measured in the same run.
//
// One app (built as production builds it) on SQLite, and on PostgreSQL when BENCH_DATABASE_URL
// or TEST_DATABASE_URL is set, on the app's test clock. 1,000 runs are issued; then for ten
// seconds of game time each run reports once a second, as 1,000 players at once do, each from
// its own address: 10,000 reports through Fastify's inject (the whole route: the run's read and
// the network's limit before the body, schema, session scope, CSRF, the guarded UPDATE and the
// appended chunk of jumps, docs/decisions/018). Baseline: GET /healthz through the same app.
// "DB only" times the report's statements alone (read the run; in one transaction, write its
// progress and append its jumps). Last, one address sends reports for 1,000 made-up run ids:
// what each costs, and the rate_limits rows they add.
import { performance } from 'node:perf_hooks';
import { progressPath } from '#shared/api/game.ts';
import { STEP_MS } from '#shared/game/constants.ts';
import { REPORT_INTERVAL_MS, ROUND_START_DELAY_MS } from '#shared/game/pacing.ts';
import { findRunProgress, insertRun, recordProgress } from '#server/game/repository.ts';
import { createTestApp } from '#test-support/test-app.ts';
import { TestClient } from '#test-support/test-client.ts';
import type { DatabaseKind } from '#test-support/test-database.ts';

const PLAYERS = 1000;
const SECONDS = 10;
const CONCURRENCY = 32;

interface Figures {
  perRequestUs: number;
  cpuPerRequestUs: number;
  perSecond: number;
}

async function timed(count: number, send: (i: number) => Promise<void>): Promise<Figures> {
  const cpu = process.cpuUsage();
  const started = performance.now();
  let next = 0;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      for (let i = next++; i < count; i = next++) await send(i);
    }),
  );
  const wallMs = performance.now() - started;
  const used = process.cpuUsage(cpu);
  return {
    perRequestUs: (wallMs * 1000) / count,
    cpuPerRequestUs: (used.user + used.system) / count,
    perSecond: (count * 1000) / wallMs,
  };
}

async function bench(kind: DatabaseKind) {
  const t = await createTestApp(kind);
  try {
    const db = t.app.deps.db;
    const client = TestClient.inject(t.app);
    // Each player on their own address: reports are limited per network.
    const players = Array.from({ length: PLAYERS }, (_, i) =>
      TestClient.inject(t.app, `10.${i >> 8}.${i & 255}.1`),
    );
    const issuedAt = t.clock.now();
    const runIds = Array.from({ length: PLAYERS }, (_, i) => `bench${String(i).padStart(17, '0')}`);
    for (const id of runIds) await insertRun(db, { id, seed: 1, userId: null, issuedAt });
    await client.request('GET', '/healthz');
    for (const player of players) await player.token();

    const started = issuedAt + ROUND_START_DELAY_MS;
    const report = (second: number, i: number) => async () => {
      const step = Math.floor((second * REPORT_INTERVAL_MS) / STEP_MS);
      const res = await players[i]!.request('POST', progressPath(runIds[i]!), {
        body: { step, jumps: [step - 40, step - 13] },
      });
      if (res.statusCode !== 200) throw new Error(`report refused: ${res.body}`);
    };
    const reports: Figures[] = [];
    const baseline: Figures[] = [];
    for (let second = 1; second <= SECONDS; second++) {
      t.clock.advance(started + second * REPORT_INTERVAL_MS - t.clock.now());
      reports.push(await timed(PLAYERS, (i) => report(second, i)()));
      baseline.push(
        await timed(PLAYERS, async () => {
          const res = await client.request('GET', '/healthz');
          if (res.statusCode !== 200) throw new Error('healthz failed');
        }),
      );
    }

    // Made-up run ids from one address: refused after the run's read, 429 past the allowance.
    const limiterRows = async () =>
      Number(
        (
          await db
            .selectFrom('rate_limits')
            .select((eb) => eb.fn.countAll<number | string>().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );
    const rowsBefore = await limiterRows();
    const statuses = new Map<number, number>();
    const unknown = await timed(PLAYERS, async (i) => {
      const res = await client.request('POST', progressPath(`made${String(i).padStart(18, '0')}`), {
        body: { step: 60, jumps: [] },
      });
      statuses.set(res.statusCode, (statuses.get(res.statusCode) ?? 0) + 1);
    });
    const rowsAdded = (await limiterRows()) - rowsBefore;

    // The database's share: the report's read, its guarded write and its chunk, nothing else.
    const dbOnly = await timed(PLAYERS, async (i) => {
      const id = runIds[i]!;
      const run = (await findRunProgress(db, id))!;
      const step = run.progress_step + 1;
      const ok = await recordProgress(
        db,
        id,
        { step: run.progress_step, at: run.progress_at },
        { step, jumps: [step - 1], at: t.clock.now() },
      );
      if (!ok) throw new Error('progress not recorded');
    });

    const median = (xs: Figures[], key: keyof Figures) =>
      xs.map((x) => x[key]).sort((a, b) => a - b)[xs.length >> 1]!;
    const row = (label: string, xs: Figures[]) =>
      `  ${label.padEnd(40)} ${median(xs, 'perRequestUs').toFixed(0).padStart(6)} µs wall   ` +
      `${median(xs, 'cpuPerRequestUs').toFixed(0).padStart(6)} µs CPU   ` +
      `${median(xs, 'perSecond').toFixed(0).padStart(7)} /s`;
    console.log(
      `\n${kind}: ${PLAYERS} players, ${SECONDS} reports each, concurrency ${CONCURRENCY} (medians of ${SECONDS} seconds)`,
    );
    console.log(row('POST /api/game-runs/:runId/progress', reports));
    console.log(row('baseline: GET /healthz (same app)', baseline));
    console.log(row('DB only: read, UPDATE + chunk INSERT', [dbOnly]));
    console.log(row('made-up run ids, one address', [unknown]));
    console.log(
      `  made-up run ids: ${[...statuses].map(([status, n]) => `${n} × ${status}`).join(', ')}; ` +
        `${rowsAdded} rate_limits rows added`,
    );
    const reportCpuUs = median(reports, 'cpuPerRequestUs');
    console.log(
      `  1,000 players at once = 1,000 reports/s = 1,000 reads + 1,000 commits/s (UPDATE + chunk): ` +
        `${((1000 / dbOnly.perSecond) * 100).toFixed(0)} % of the ${dbOnly.perSecond.toFixed(0)} ` +
        `reports/s the database took here (DB only), and ${(reportCpuUs / 10).toFixed(0)} % of a ` +
        `core for the whole route (${reportCpuUs.toFixed(0)} µs CPU each)` +
        (kind === 'postgres' ? "; PostgreSQL's own CPU is another process, not counted" : ''),
    );
  } finally {
    await t.close();
  }
}

const postgres = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL;
await bench('sqlite');
if (postgres) {
  process.env.TEST_DATABASE_URL = postgres;
  await bench('postgres');
} else {
  console.log('\n(Set TEST_DATABASE_URL to a PostgreSQL server for the PostgreSQL figures.)');
}
