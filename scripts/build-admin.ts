/**
 * The operator CLI's bundle (dist/admin): src/server/cli/main.ts and what it imports, with the
 * libraries, in a few files esbuild writes in a second or two, so `npm run admin` starts without
 * compiling TypeScript (docs/decisions/030). `npm run build` makes it for the production image;
 * scripts/admin.mjs makes it again whenever a source is newer than it.
 *
 * Each build goes into a folder of its own and `dist/admin/current` names the one to run, written
 * last and atomically: a CLI starting while another rebuilds runs one whole build or the other.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(import.meta.dirname, '..');

export const ADMIN_DIR = path.join(root, 'dist/admin');
/** The file naming the build to run (its folder under ADMIN_DIR). */
export const CURRENT_FILE = path.join(ADMIN_DIR, 'current');

/** Native addons and optional drivers: resolved from node_modules at run time, never bundled. */
const EXTERNAL = [
  'better-sqlite3',
  'better-sqlite3-node22',
  'sharp',
  '@node-rs/argon2',
  'pg-native',
];

export async function buildAdmin(outRoot = ADMIN_DIR): Promise<string> {
  const { build } = await import('esbuild');
  const id = `build-${Date.now().toString(36)}-${process.pid}`;
  const outdir = path.join(outRoot, id);
  await build({
    entryPoints: { admin: path.join(root, 'src/server/cli/main.ts') },
    outdir,
    outExtension: { '.js': '.mjs' },
    bundle: true,
    // Split at the dynamic imports: `--help` loads no database driver, S3 client or Redis.
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    minify: true,
    sourcemap: 'linked',
    external: EXTERNAL,
    // Bundled CommonJS libraries call require() for Node's own modules.
    banner: {
      js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);",
    },
    logLevel: 'warning',
  });
  const current = path.join(outRoot, 'current');
  fs.writeFileSync(`${current}.${process.pid}`, id);
  fs.renameSync(`${current}.${process.pid}`, current);
  // Earlier builds go, unless a CLI started from one a moment ago still reads it (kept a minute).
  for (const entry of fs.readdirSync(outRoot)) {
    const at = path.join(outRoot, entry);
    if (!entry.startsWith('build-') || entry === id) continue;
    if (Date.now() - fs.statSync(at).mtimeMs > 60_000)
      fs.rmSync(at, { recursive: true, force: true });
  }
  return path.join(outdir, 'admin.mjs');
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  console.log(`Built ${path.relative(root, await buildAdmin())}`);
}
