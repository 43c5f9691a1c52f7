// What /metrics costs a read (`npm run bench:metrics`): two nodes of this tree on SQLite, started
// as production runs them and seeded alike (bench:load's data), one with METRICS_PORT set (every
// answer timed, the process sampled, Prometheus scraping every few seconds) and one without;
// autocannon on `GET /api/leaderboard?limit=5`, in slices taken in turn, so both see the same
// machine while other load on it comes and goes. Prints each side's throughput and latency, and
// the cost as a share of throughput (the goal in docs/decisions/026: under 3%): overall, the
// median over pairs of slices taken back to back, and from each node's CPU time per answer
// (/proc/<pid>/stat), which another process's load on the machine moves least: a node that needs
// x% more CPU per answer serves x% fewer answers on a core of its own. A scrape's own CPU time is
// measured apart (it is paid once per scrape, whatever the traffic).
//
//   npm run bench:metrics
//
// Environment: METRICS_BENCH_SECONDS (60 per side), METRICS_BENCH_SLICES (20), LOAD_CONNECTIONS
// (50), LOAD_WARMUP_SECONDS (5), METRICS_BENCH_SCRAPE_MS (15000, Prometheus' default).
import fs from 'node:fs';
import path from 'node:path';
import { gamePaths } from '#shared/api/paths.ts';
import { createDatabase } from '#server/db/create-database.ts';
import { freePort, startNode, type NodeProcess } from '#test-support/node-process.ts';
import { newSessionSecret, scratchDir } from '#test-support/scratch.ts';
import { measure, merge, settle, summarise, type Stats } from './load/measure.ts';
import { seed } from './load/seed.ts';

const env = process.env;
const SECONDS = Number(env.METRICS_BENCH_SECONDS ?? 60);
const SLICES = Number(env.METRICS_BENCH_SLICES ?? 20);
const CONNECTIONS = Number(env.LOAD_CONNECTIONS ?? 50);
const WARMUP_SECONDS = Number(env.LOAD_WARMUP_SECONDS ?? 5);
const SCRAPE_MS = Number(env.METRICS_BENCH_SCRAPE_MS ?? 15_000);
/** Scrapes in a row on the idle node, to time one. */
const SCRAPES_TIMED = 50;
const PATH = `${gamePaths.leaderboard}?limit=5`;

interface Side {
  name: string;
  node: NodeProcess;
  metricsOrigin: string | undefined;
  slices: Stats[];
  /** CPU seconds (user and system) the node spent in each slice. */
  cpu: number[];
  dataDir: string;
}

/** A process's CPU time so far, in seconds (Linux: utime and stime from /proc). */
function cpuSeconds(pid: number): number {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // Fields 14 and 15 of stat(5), counted from the state (field 3) here; in clock ticks of 10 ms.
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

async function startSide(name: string, withMetrics: boolean): Promise<Side> {
  const dataDir = scratchDir('grind-bench-metrics-');
  const metricsPort = withMetrics ? await freePort() : undefined;
  const node = await startNode({
    keepOutput: 0,
    env: {
      NODE_ENV: 'production',
      DATA_DIR: dataDir,
      SESSION_SECRET: newSessionSecret(),
      // API only: the page's rendering is not what this measures.
      CLIENT_DIST_DIR: path.join(dataDir, 'no-client'),
      METRICS_PORT: metricsPort === undefined ? undefined : String(metricsPort),
    },
  });
  const db = createDatabase({ kind: 'sqlite', file: path.join(dataDir, 'app.db') });
  try {
    await seed(db);
  } finally {
    await db.destroy();
  }
  return {
    name,
    node,
    metricsOrigin: metricsPort === undefined ? undefined : `http://127.0.0.1:${metricsPort}`,
    slices: [],
    cpu: [],
    dataDir,
  };
}

/** Scrapes `origin` every SCRAPE_MS, as Prometheus would, until stopped. */
function scrapeEvery(origin: string): { stop(): Promise<void> } {
  let done = false;
  let wake = () => {};
  const loop = (async () => {
    while (!done) {
      const res = await fetch(`${origin}/metrics`);
      if (res.status !== 200) throw new Error(`/metrics answered ${res.status}`);
      await res.arrayBuffer();
      await new Promise<void>((resolve) => {
        wake = resolve;
        setTimeout(resolve, SCRAPE_MS);
      });
    }
  })();
  return {
    async stop() {
      done = true;
      wake();
      await loop;
    },
  };
}

/** The node's CPU time for one scrape, in seconds, over scrapes in a row with no other traffic. */
async function timeScrapes(side: Side): Promise<number> {
  const before = cpuSeconds(side.node.child.pid!);
  for (let i = 0; i < SCRAPES_TIMED; i++) {
    await (await fetch(`${side.metricsOrigin}/metrics`)).arrayBuffer();
  }
  return (cpuSeconds(side.node.child.pid!) - before) / SCRAPES_TIMED;
}

async function main(): Promise<void> {
  const sides = [await startSide('metrics off', false), await startSide('metrics on', true)];
  try {
    const target = (side: Side) => ({
      origins: [side.node.origin],
      connections: CONNECTIONS,
      request: { method: 'GET' as const, path: PATH },
    });
    const settleAll = () => settle(sides.map((s) => `${s.node.origin}/healthz`));
    for (const side of sides) await measure([target(side)], WARMUP_SECONDS);
    await settleAll();
    const slice = SECONDS / SLICES;
    // Prometheus keeps its own time: one scrape every SCRAPE_MS through the whole run.
    const scraper = scrapeEvery(sides[1]!.metricsOrigin!);
    for (let i = 0; i < SLICES; i++) {
      // Each side goes first in every other slice, so neither always follows the other.
      for (const side of i % 2 ? [...sides].reverse() : sides) {
        const cpuBefore = cpuSeconds(side.node.child.pid!);
        const [stats] = await measure([target(side)], slice);
        side.cpu.push(cpuSeconds(side.node.child.pid!) - cpuBefore);
        side.slices.push(stats!);
        await settleAll();
      }
    }
    await scraper.stop();
    const [off, on] = sides.map((side) => ({ side, all: summarise(merge(side.slices)) }));
    const rps = (s: Stats) => s.responses / s.seconds;
    const perSlice = (side: Side) => side.slices.map((s) => Math.round(rps(s))).join(' ');
    console.log(
      `GET ${PATH}, ${CONNECTIONS} connections, ${SLICES} slices of ${slice} s per side, scrape every ${SCRAPE_MS / 1000} s`,
    );
    for (const { side, all } of [off!, on!]) {
      const ms = (n: number) => n.toFixed(1);
      console.log(
        `${side.name.padEnd(12)} ${all.rps.toFixed(0).padStart(6)} req/s  p50 ${ms(all.p50)} ms  p99 ${ms(all.p99)} ms  answers ${all.statuses}`,
      );
      console.log(`  per slice: ${perSlice(side)}`);
    }
    const cost = (ratio: number) => `${((1 - ratio) * 100).toFixed(1)}%`;
    const overall = on!.all.rps / off!.all.rps;
    const pairs = off!.side.slices
      .map((s, i) => rps(on!.side.slices[i]!) / rps(s))
      .sort((a, b) => a - b);
    const median = pairs[Math.floor(pairs.length / 2)]!;
    console.log(`metrics on / off, overall: ${overall.toFixed(3)} (cost ${cost(overall)})`);
    console.log(
      `metrics on / off, median of ${pairs.length} pairs: ${median.toFixed(3)} (cost ${cost(median)}; quartiles ${pairs[Math.floor(pairs.length / 4)]!.toFixed(3)}-${pairs[Math.floor((3 * pairs.length) / 4)]!.toFixed(3)})`,
    );
    const cpuPerAnswer = (side: Side) =>
      side.cpu.reduce((a, b) => a + b, 0) / side.slices.reduce((n, s) => n + s.responses, 0);
    const [cpuOff, cpuOn] = [cpuPerAnswer(off!.side), cpuPerAnswer(on!.side)];
    const cpuPairs = off!.side.cpu
      .map((cpu, i) => {
        const perAnswer = (side: Side) => side.cpu[i]! / side.slices[i]!.responses;
        return perAnswer(off!.side) / perAnswer(on!.side);
      })
      .sort((a, b) => a - b);
    const cpuMedian = cpuPairs[Math.floor(cpuPairs.length / 2)]!;
    console.log(
      `CPU per answer: off ${(cpuOff * 1e6).toFixed(1)} µs, on ${(cpuOn * 1e6).toFixed(1)} µs: on / off ${(cpuOff / cpuOn).toFixed(3)} in throughput (cost ${cost(cpuOff / cpuOn)}); median of pairs ${cpuMedian.toFixed(3)} (cost ${cost(cpuMedian)})`,
    );
    const scrapeCpu = await timeScrapes(on!.side);
    console.log(
      `one scrape: ${(scrapeCpu * 1000).toFixed(1)} ms of CPU (every ${SCRAPE_MS / 1000} s: ${((scrapeCpu / (SCRAPE_MS / 1000)) * 100).toFixed(2)}% of a core)`,
    );
    if (off!.all.errors + on!.all.errors > 0) process.exitCode = 1;
  } finally {
    for (const side of sides) {
      await side.node.stop();
      fs.rmSync(side.dataDir, { recursive: true, force: true });
    }
  }
}

await main();
