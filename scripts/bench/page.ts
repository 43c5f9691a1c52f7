// Page speed on a phone (`npm run bench:page`): builds the client for production, serves the
// whole site on a free port, and runs Lighthouse (mobile emulation, simulated slow 4G and a 4x
// slower CPU) against `/` in the system Chromium. Prints the performance score, LCP, TBT, CLS
// and the first-load JavaScript, gzipped. The chart frame's host is blocked, so nothing leaves
// this machine.
//
//   npx tsx scripts/bench/page.ts [--runs 3] [--path /]
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { parseArgs } from 'node:util';
import lighthouse from 'lighthouse';
import { buildApp } from '#server/app.ts';
import { loadConfig } from '#server/config.ts';
import {
  buildClientForMeasurement,
  FIRST_LOAD_BUDGET_BYTES,
  formatKb,
  measureFirstLoad,
} from './first-load.ts';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../../tests/chromium.ts';

const TARGETS = { performance: 95, cls: 0.02, firstLoadBytes: FIRST_LOAD_BUDGET_BYTES };
// The flags every Chromium run here uses (tests/chromium.ts), then the ones Lighthouse's
// own launcher adds so a page is never throttled as if it were in the background.
const CHROMIUM_FLAGS = [
  ...CHROMIUM_ARGS,
  '--disable-extensions',
  '--disable-default-apps',
  '--mute-audio',
  '--no-default-browser-check',
  '--disable-backgrounding-occluded-windows',
  '--disable-renderer-backgrounding',
  '--disable-background-timer-throttling',
  '--disable-ipc-flooding-protection',
  '--disable-hang-monitor',
  '--password-store=basic',
];

const { values: args } = parseArgs({
  options: {
    runs: { type: 'string', default: '3' },
    path: { type: 'string', default: '/' },
    details: { type: 'boolean', default: false },
  },
});
const runs = Math.max(1, Number(args.runs));

interface RunResult {
  score: number;
  fcp: number;
  lcp: number;
  tbt: number;
  cls: number;
  si: number;
}

/** Starts Chromium with a DevTools port of its choosing and reads the port back. */
async function launchChromium(
  userDataDir: string,
): Promise<{ port: number; process: ChildProcess }> {
  const child = spawn(
    CHROMIUM_PATH,
    [
      ...CHROMIUM_FLAGS,
      '--remote-debugging-port=0',
      `--user-data-dir=${userDataDir}`,
      'about:blank',
    ],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  const lines = createInterface({ input: child.stderr! });
  const port = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error('Chromium did not open a DevTools port')),
      30_000,
    );
    child.once('exit', (code) => reject(new Error(`Chromium exited (${code})`)));
    lines.on('line', (line) => {
      const match = /DevTools listening on ws:\/\/[^:]+:(\d+)\//.exec(line);
      if (match) {
        clearTimeout(timer);
        resolve(Number(match[1]));
      }
    });
  });
  return { port, process: child };
}

/** One Lighthouse run; a trace that came out broken (it happens on a busy machine) is redone. */
async function runLighthouse(url: string, port: number) {
  for (let attempt = 1; ; attempt++) {
    const result = await lighthouse(url, {
      port,
      output: 'json',
      logLevel: 'error',
      onlyCategories: ['performance'],
      // Lighthouse's default: a mid-range phone on slow 4G, simulated.
      formFactor: 'mobile',
      throttlingMethod: 'simulate',
      blockedUrlPatterns: ['*dexscreener.com*'],
    });
    const lhr = result?.lhr;
    if (lhr && !lhr.runtimeError) return lhr;
    const reason = lhr?.runtimeError?.message ?? 'no report';
    if (attempt === 3) throw new Error(`Lighthouse: ${reason}`);
    console.log(`Lighthouse: ${reason}; trying again`);
  }
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

async function main(): Promise<void> {
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'grind-bench-page-'));
  console.log('Building the client (production)...');
  const distDir = await buildClientForMeasurement(path.join(work, 'client'));
  const firstLoad = measureFirstLoad(distDir);

  const config = loadConfig({
    NODE_ENV: 'production',
    HOST: '127.0.0.1',
    PORT: '0',
    DATA_DIR: path.join(work, 'data'),
    CLIENT_DIST_DIR: distDir,
    LOG_LEVEL: 'silent',
  });
  const app = await buildApp(config, { logger: false });
  await app.listen({ host: config.host, port: 0 });
  const address = app.server.address();
  if (!address || typeof address === 'string') throw new Error('no port');
  const url = `http://127.0.0.1:${address.port}${args.path}`;

  const chrome = await launchChromium(path.join(work, 'chromium-profile'));
  const results: RunResult[] = [];
  try {
    for (let i = 0; i < runs; i++) {
      const lhr = await runLighthouse(url, chrome.port);
      const audit = (id: string) => lhr.audits[id]?.numericValue ?? Number.NaN;
      const run: RunResult = {
        score: Math.round((lhr.categories.performance?.score ?? 0) * 100),
        fcp: audit('first-contentful-paint'),
        lcp: audit('largest-contentful-paint'),
        tbt: audit('total-blocking-time'),
        cls: audit('cumulative-layout-shift'),
        si: audit('speed-index'),
      };
      results.push(run);
      if (args.details) {
        // Where the main thread's time went, and the long tasks (simulated durations).
        type Items = { details?: { items?: Array<Record<string, unknown>> } };
        const items = (id: string) => (lhr.audits[id] as Items | undefined)?.details?.items ?? [];
        console.log(`  benchmarkIndex ${lhr.environment.benchmarkIndex}`);
        for (const row of items('mainthread-work-breakdown')) {
          console.log(
            `  ${String(row.groupLabel).padEnd(32)} ${Math.round(Number(row.duration))} ms`,
          );
        }
        for (const task of items('long-tasks')) {
          console.log(
            `  long task at ${Math.round(Number(task.startTime))} ms: ${Math.round(Number(task.duration))} ms ${String(task.url)}`,
          );
        }
        const lcpItems = (lhr.audits['largest-contentful-paint-element'] as Items | undefined)
          ?.details?.items;
        console.log(`  LCP element: ${JSON.stringify(lcpItems?.[0]).slice(0, 300)}`);
      }
      console.log(
        `run ${i + 1}/${runs}: score ${run.score}, LCP ${Math.round(run.lcp)} ms, TBT ${Math.round(run.tbt)} ms, CLS ${run.cls.toFixed(3)} (load ${os.loadavg()[0]!.toFixed(1)} on ${os.cpus().length} cores)`,
      );
    }
  } finally {
    chrome.process.kill();
    await new Promise((resolve) => chrome.process.once('exit', resolve));
    await app.close();
    fs.rmSync(work, { recursive: true, force: true });
  }

  const m = (key: keyof RunResult) => median(results.map((r) => r[key]));
  const check = (ok: boolean) => (ok ? 'ok' : 'MISSED');
  const rows: Array<[string, string, string]> = [
    [
      'Performance score',
      String(m('score')),
      `>= ${TARGETS.performance} ${check(m('score') >= TARGETS.performance)}`,
    ],
    ['First Contentful Paint', `${Math.round(m('fcp'))} ms`, ''],
    ['Largest Contentful Paint', `${Math.round(m('lcp'))} ms`, ''],
    ['Total Blocking Time', `${Math.round(m('tbt'))} ms`, ''],
    [
      'Cumulative Layout Shift',
      m('cls').toFixed(3),
      `<= ${TARGETS.cls} ${check(m('cls') <= TARGETS.cls)}`,
    ],
    ['Speed Index', `${Math.round(m('si'))} ms`, ''],
    [
      'First-load JS (gzip)',
      formatKb(firstLoad.jsGzipBytes),
      `<= ${formatKb(TARGETS.firstLoadBytes)} ${check(firstLoad.jsGzipBytes <= TARGETS.firstLoadBytes)}`,
    ],
    ['First-load CSS (gzip)', formatKb(firstLoad.cssGzipBytes), ''],
    ['All JS built (gzip)', formatKb(firstLoad.allJsGzipBytes), ''],
  ];
  console.log(
    `\nLighthouse ${results.length > 1 ? `median of ${results.length} runs` : '1 run'}, mobile, ${url}`,
  );
  for (const [name, value, target] of rows)
    console.log(`${name.padEnd(26)} ${value.padStart(10)}   ${target}`);
  const best = results.reduce((a, b) => (b.score > a.score ? b : a));
  console.log(
    `best run: score ${best.score}, LCP ${Math.round(best.lcp)} ms, TBT ${Math.round(best.tbt)} ms, CLS ${best.cls.toFixed(3)}`,
  );
  // Lighthouse scales the CPU time it observes, so other work on this machine inflates TBT most.
  if (os.loadavg()[0]! > os.cpus().length) {
    console.log(
      `note: the machine was busy (load ${os.loadavg()[0]!.toFixed(1)} on ${os.cpus().length} cores); timings, TBT above all, read high`,
    );
  }
  console.log(
    `first-load files: ${firstLoad.files.map((f) => `${f.file} ${formatKb(f.gzipBytes)}`).join(', ')}`,
  );
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
