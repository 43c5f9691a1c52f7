/**
 * `npm run admin -- <command>`: the operator CLI, run from its bundle (scripts/build-admin.ts,
 * dist/admin) instead of compiling src/server/cli with tsx at every start, which took 7 s on an
 * idle 2-core machine (docs/decisions/030). Plain JavaScript, so that nothing is compiled on the
 * way in. When a source under src/server or src/shared (or the lock file) is newer than the
 * bundle, it is built again first, as `npm start` rebuilds a stale client.
 */
import fs from 'node:fs';
import module from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const root = path.resolve(import.meta.dirname, '..');
const adminDir = path.join(root, 'dist/admin');
const currentFile = path.join(adminDir, 'current');
const sources = [
  'src/server',
  'src/shared',
  'package.json',
  'package-lock.json',
  'scripts/build-admin.ts',
];

/** The newest modification time under `target`, tests left out (they are not in the bundle). */
function newest(target) {
  const stat = fs.statSync(target, { throwIfNoEntry: false });
  if (!stat) return 0;
  if (!stat.isDirectory()) return /\.test\.tsx?$/.test(target) ? 0 : stat.mtimeMs;
  let time = stat.mtimeMs;
  for (const entry of fs.readdirSync(target))
    time = Math.max(time, newest(path.join(target, entry)));
  return time;
}

/** The bundle to run, or undefined when there is none or a source is newer than it. */
function freshBundle() {
  const built = fs.statSync(currentFile, { throwIfNoEntry: false });
  if (!built) return undefined;
  const bundle = path.join(adminDir, fs.readFileSync(currentFile, 'utf8').trim(), 'admin.mjs');
  if (!fs.existsSync(bundle)) return undefined;
  const changed = Math.max(...sources.map((s) => newest(path.join(root, s))));
  return changed > built.mtimeMs ? undefined : bundle;
}

// Node 22+ keeps the bundle's compiled code between runs (a no-op on Node 20, which lacks it).
module.enableCompileCache?.();

let bundle = freshBundle();
if (!bundle) {
  process.stderr.write('Building the admin CLI (sources changed since the last build)...\n');
  const { tsImport } = await import('tsx/esm/api');
  const { buildAdmin } = await tsImport('./build-admin.ts', import.meta.url);
  bundle = await buildAdmin();
}
await import(pathToFileURL(bundle).href);
