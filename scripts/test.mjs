/**
 * `npm test`: every test, Vitest (unit, API, process suites) and Playwright (the browser
 * journeys) at the same time. Each mostly waits (server processes starting, paced game rounds,
 * replays watched to the end): one after the other they kept the 2-core machine about half busy
 * for the whole run, side by side they fill it (docs/decisions/025). Each suite's lines are
 * streamed as they come, marked with its name; the exit code is the first failure's, else 0.
 * One alone: `npm run test:unit` or `npm run test:e2e`, which take the runner's arguments.
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import readline from 'node:readline';

const root = path.resolve(import.meta.dirname, '..');
const suites = [
  { name: 'vitest', bin: 'node_modules/vitest/vitest.mjs', args: ['run'] },
  { name: 'playwright', bin: 'node_modules/@playwright/test/cli.js', args: ['test'] },
];

/** Runs one suite, its output's lines marked with its name; resolves to its exit code. */
function run({ name, bin, args }) {
  const child = spawn(process.execPath, [path.join(root, bin), ...args], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  for (const [stream, out] of [
    [child.stdout, process.stdout],
    [child.stderr, process.stderr],
  ]) {
    readline
      .createInterface({ input: stream, crlfDelay: Infinity })
      .on('line', (line) => out.write(`[${name}] ${line}\n`));
  }
  const stop = (signal) => child.kill(signal);
  process.on('SIGINT', stop).on('SIGTERM', stop);
  return new Promise((resolve) =>
    child.on('close', (code, signal) => {
      const status = code ?? (signal ? 1 : 0);
      console.log(`[${name}] ${status === 0 ? 'passed' : `FAILED (exit ${code ?? signal})`}`);
      resolve(status);
    }),
  );
}

const codes = await Promise.all(suites.map(run));
process.exit(codes.find((code) => code !== 0) ?? 0);
