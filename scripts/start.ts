/**
 * `npm start`: builds the client when it is missing or older than its sources, then serves the
 * whole site (migrations run as the server starts).
 */
import fs from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const builtIndex = path.join(root, 'dist/client/index.html');
const sourceDirs = ['src/client', 'src/shared', 'public'].map((dir) => path.join(root, dir));
const sourceFiles = ['vite.config.ts'].map((file) => path.join(root, file));

function newestMtime(target: string): number {
  const stat = fs.statSync(target, { throwIfNoEntry: false });
  if (!stat) return 0;
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const entry of fs.readdirSync(target)) newest = Math.max(newest, newestMtime(path.join(target, entry)));
  return newest;
}

function clientIsStale(): boolean {
  const built = fs.statSync(builtIndex, { throwIfNoEntry: false });
  if (!built) return true;
  const newestSource = Math.max(...[...sourceDirs, ...sourceFiles].map(newestMtime));
  return newestSource > built.mtimeMs;
}

if (clientIsStale()) {
  console.log('Building the client...');
  const { build } = await import('vite');
  await build({ configFile: path.join(root, 'vite.config.ts'), logLevel: 'warn' });
}

await import('../src/server/main.ts');
