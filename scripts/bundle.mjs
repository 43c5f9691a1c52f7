/**
 * The server's bundle to run (scripts/build-bundle.ts, dist/bundle): `npm start`, `npm run admin`
 * and the tests' server nodes start from it instead of compiling src/server with tsx at every
 * start (docs/decisions/030). Plain JavaScript, so that nothing is compiled on the way in. When a
 * source under src/server or src/shared (or the lock file) is newer than the bundle, it is built
 * again first, as `npm start` rebuilds a stale client.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = path.resolve(import.meta.dirname, '..');
const bundleDir = path.join(root, 'dist/bundle');
const currentFile = path.join(bundleDir, 'current');
const sources = [
  'src/server',
  'src/shared',
  'package.json',
  'package-lock.json',
  'scripts/build-bundle.ts',
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

/** The current build's folder, or undefined when there is none or a source is newer than it. */
function freshBuild() {
  const built = fs.statSync(currentFile, { throwIfNoEntry: false });
  if (!built) return undefined;
  const dir = path.join(bundleDir, fs.readFileSync(currentFile, 'utf8').trim());
  if (!fs.existsSync(dir)) return undefined;
  const changed = Math.max(...sources.map((s) => newest(path.join(root, s))));
  return changed > built.mtimeMs ? undefined : dir;
}

/** The URL of one of the bundle's entries (`server` or `admin`), built first when stale. */
export async function bundledEntry(name) {
  let dir = freshBuild();
  if (!dir) {
    process.stderr.write('Building the server (no bundle yet, or a source is newer than it)...\n');
    const { tsImport } = await import('tsx/esm/api');
    const { buildBundle } = await tsImport('./build-bundle.ts', import.meta.url);
    dir = await buildBundle();
  }
  return pathToFileURL(path.join(dir, `${name}.mjs`)).href;
}

// `node scripts/bundle.mjs`: builds the bundle when stale, and runs nothing (the tests' setup).
if (process.argv[1] === fileURLToPath(import.meta.url)) await bundledEntry('server');
