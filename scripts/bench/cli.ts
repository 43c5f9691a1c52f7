// `npm run bench:cli`: how long the operator CLI takes to answer `--help` and `users:list` (on a
// fresh SQLite data folder), run as `npm run admin` now runs it (its bundle, scripts/admin.mjs)
// beside the way it ran before issue 42 (TypeScript compiled by tsx at each start), in the same
// run, alternating so that both meet the same load. Each figure: the median wall time, and the
// median CPU the process used (user + system), which is about what the wall time is on an idle
// machine: this one is shared, so the load average is printed too. Goal: 1.5 s through npm run.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const RUNS = Number(process.argv.find((a) => a.startsWith('--runs='))?.slice(7) ?? 5);
const GOAL_S = 1.5;
const root = path.resolve(import.meta.dirname, '../..');
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'grind-bench-cli-'));

/** CPU seconds used by this process's waited-for children so far (Linux; undefined elsewhere). */
function childrenCpu(): number | undefined {
  try {
    const fields = fs.readFileSync('/proc/self/stat', 'utf8').split(') ')[1]!.split(' ');
    // cutime and cstime, fields 16 and 17 of stat(5), counted from field 3 here; 100 ticks a second.
    return (Number(fields[13]) + Number(fields[14])) / 100;
  } catch {
    return undefined;
  }
}

interface Sample {
  wall: number;
  cpu: number | undefined;
  /** The launcher rebuilt the bundle first (a source changed meanwhile): not a start-up. */
  rebuilt: boolean;
}

function run(command: string, args: string[]): Promise<Sample> {
  const cpuBefore = childrenCpu();
  const start = performance.now();
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      cwd: root,
      env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: '', NODE_ENV: 'production' },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('exit', (code) => {
      if (code !== 0) {
        reject(new Error(`${command} ${args.join(' ')} exited ${code}: ${stderr}`));
        return;
      }
      const cpuAfter = childrenCpu();
      resolve({
        wall: (performance.now() - start) / 1000,
        cpu: cpuBefore === undefined || cpuAfter === undefined ? undefined : cpuAfter - cpuBefore,
        rebuilt: stderr.includes('Building the server'),
      });
    });
  });
}

const ways = {
  'npm run admin (bundle, now)': (args: string[]) =>
    run('npm', ['run', '-s', 'admin', '--', ...args]),
  'node scripts/admin.mjs (bundle, without npm)': (args: string[]) =>
    run(process.execPath, ['scripts/admin.mjs', ...args]),
  'tsx src/server/cli/main.ts (before)': (args: string[]) =>
    run(process.execPath, ['--import', 'tsx', 'src/server/cli/main.ts', ...args]),
  'npm exec tsx (before, through npm)': (args: string[]) =>
    run('npm', ['exec', '--offline', '--', 'tsx', 'src/server/cli/main.ts', ...args]),
};
type Way = keyof typeof ways;

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const seconds = (x: number | undefined) => (x === undefined ? 'n/a' : `${x.toFixed(2)} s`);

try {
  // The first run builds a stale bundle and migrates the fresh database: not measured.
  await ways['npm run admin (bundle, now)'](['users:list']);
  console.log(
    `Operator CLI start-up, ${RUNS} runs of each (medians), load average ${os.loadavg()[0]!.toFixed(1)} on ${os.cpus().length} cores`,
  );
  console.log('\n| command | way | wall | CPU (user+sys) |');
  console.log('|---|---|---|---|');
  const results = new Map<string, Sample[]>();
  for (const args of [['--help'], ['users:list']]) {
    for (let i = 0; i < RUNS; i++) {
      for (const way of Object.keys(ways) as Way[]) {
        const key = `${args.join(' ')}|${way}`;
        // A sample that rebuilt the bundle (someone edited src meanwhile) is taken again.
        let sample = await ways[way](args);
        while (sample.rebuilt) sample = await ways[way](args);
        results.set(key, [...(results.get(key) ?? []), sample]);
      }
    }
    for (const way of Object.keys(ways) as Way[]) {
      const samples = results.get(`${args.join(' ')}|${way}`)!;
      const cpu = samples.every((s) => s.cpu !== undefined)
        ? median(samples.map((s) => s.cpu!))
        : undefined;
      console.log(
        `| ${args.join(' ')} | ${way} | ${seconds(median(samples.map((s) => s.wall)))} | ${seconds(cpu)} |`,
      );
    }
  }
  console.log(`\nLoad average at the end: ${os.loadavg()[0]!.toFixed(1)}.`);
  for (const command of ['--help', 'users:list']) {
    const samples = results.get(`${command}|npm run admin (bundle, now)`)!;
    const wall = median(samples.map((s) => s.wall));
    const cpu = samples.every((s) => s.cpu !== undefined)
      ? median(samples.map((s) => s.cpu!))
      : undefined;
    const idle = cpu ?? wall;
    console.log(
      `Goal: npm run admin -- ${command} in ${GOAL_S} s on an idle machine: ${idle <= GOAL_S ? 'met' : 'NOT met'} (${seconds(wall)} here, ${seconds(cpu)} of CPU).`,
    );
  }
} finally {
  fs.rmSync(dataDir, { recursive: true, force: true });
}
