/**
 * The server's bundle (dist/bundle): the site's process (src/server/main.ts) and the operator CLI
 * (src/server/cli/main.ts), with the libraries and the code they share, in a few files esbuild
 * writes in a second or two, so neither compiles TypeScript as it starts (docs/decisions/030).
 * `npm run build` makes it for the production image; scripts/bundle.mjs makes it again whenever a
 * source is newer than it.
 *
 * Each build goes into a folder of its own and `dist/bundle/current` names the one to run,
 * written last and atomically: a process starting while another rebuilds runs one whole build or
 * the other.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(import.meta.dirname, '..');

export const BUNDLE_DIR = path.join(root, 'dist/bundle');

/** Native addons and optional drivers: resolved from node_modules at run time, never bundled. */
const EXTERNAL = [
  'better-sqlite3',
  'better-sqlite3-node22',
  'sharp',
  '@node-rs/argon2',
  'pg-native',
];

/**
 * The server's worker threads, plain JavaScript that the server starts by a path beside its own
 * code (`new URL('./render-worker.mjs', import.meta.url)`): copied as they are, their libraries
 * (the classifier's TensorFlow and model) loaded from node_modules when a worker starts.
 */
const WORKERS = ['src/server/site/render-worker.mjs', 'src/server/uploads/screen-worker.mjs'];

/** Builds the bundle and makes it the current one; answers its folder. */
export async function buildBundle(outRoot = BUNDLE_DIR): Promise<string> {
  const { build } = await import('esbuild');
  const id = `build-${Date.now().toString(36)}-${process.pid}`;
  const outdir = path.join(outRoot, id);
  await build({
    entryPoints: {
      server: path.join(root, 'src/server/main.ts'),
      admin: path.join(root, 'src/server/cli/main.ts'),
    },
    outdir,
    outExtension: { '.js': '.mjs' },
    bundle: true,
    // Split at the dynamic imports and between the two entries: the CLI's `--help` loads no
    // database driver, S3 client or Redis, and the code both run is written once.
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    // White space and syntax only: the names stay, so a logged error's stack still says which
    // function it came through.
    minifyWhitespace: true,
    minifySyntax: true,
    sourcemap: 'linked',
    external: EXTERNAL,
    // Bundled CommonJS libraries call require() for Node's own modules.
    banner: {
      js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);",
    },
    logLevel: 'warning',
  });
  for (const worker of WORKERS)
    fs.copyFileSync(path.join(root, worker), path.join(outdir, path.basename(worker)));
  const current = path.join(outRoot, 'current');
  fs.writeFileSync(`${current}.${process.pid}`, id);
  fs.renameSync(`${current}.${process.pid}`, current);
  // Earlier builds go once an hour old: a server started from one has loaded all it runs but the
  // classifier's worker, which it starts at the first upload.
  for (const entry of fs.readdirSync(outRoot)) {
    const at = path.join(outRoot, entry);
    if (!entry.startsWith('build-') || entry === id) continue;
    if (Date.now() - fs.statSync(at).mtimeMs > 60 * 60_000)
      fs.rmSync(at, { recursive: true, force: true });
  }
  return outdir;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  console.log(`Built ${path.relative(root, await buildBundle())}`);
}
