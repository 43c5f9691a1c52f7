/**
 * `npm start`: builds the client and the server's page renderer when either is missing or older
 * than their sources, then serves the whole site from the server's bundle, itself built first
 * when stale (scripts/server.mjs; migrations run as the server starts).
 */
import fs from 'node:fs';
import path from 'node:path';
import { buildSite, DEFAULT_CLIENT_OUT_DIR, serverOutDirFor } from './build-site.ts';

const root = path.resolve(import.meta.dirname, '..');
const builtFiles = [
  path.join(DEFAULT_CLIENT_OUT_DIR, 'index.html'),
  // The operator console's own build (docs/decisions/022).
  path.join(DEFAULT_CLIENT_OUT_DIR, 'console-entry.txt'),
  path.join(serverOutDirFor(DEFAULT_CLIENT_OUT_DIR), 'entry-server.js'),
];
const sourceDirs = ['src/client', 'src/shared', 'public'].map((dir) => path.join(root, dir));
const sourceFiles = ['vite.config.ts', 'scripts/build-site.ts'].map((file) =>
  path.join(root, file),
);

function newestMtime(target: string): number {
  const stat = fs.statSync(target, { throwIfNoEntry: false });
  if (!stat) return 0;
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const entry of fs.readdirSync(target))
    newest = Math.max(newest, newestMtime(path.join(target, entry)));
  return newest;
}

function buildIsStale(): boolean {
  const built = builtFiles.map((file) => fs.statSync(file, { throwIfNoEntry: false }));
  if (built.some((stat) => !stat)) return true;
  const newestSource = Math.max(...[...sourceDirs, ...sourceFiles].map(newestMtime));
  return built.some((stat) => newestSource > stat!.mtimeMs);
}

if (buildIsStale()) {
  console.log('Building the client...');
  await buildSite();
}

// By address: scripts/server.mjs is plain JavaScript, run as it is, with no types to check.
await import(new URL('./server.mjs', import.meta.url).href);
