/**
 * The production build: the browser's bundle (dist/client) and the server's renderer of the same
 * components (dist/server/entry-server.js, see src/client/entry-server.tsx). `npm run build`,
 * `npm start` (when stale) and the page benchmark all build through here.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildBundle } from './build-bundle.ts';

const root = path.resolve(import.meta.dirname, '..');

export const DEFAULT_CLIENT_OUT_DIR = path.join(root, 'dist/client');

export interface SiteBuild {
  clientOutDir?: string;
  /** Vite's manifest, for measuring the first load (scripts/bench/first-load.ts). */
  manifest?: boolean;
  sourcemap?: boolean;
  logLevel?: 'silent' | 'warn' | 'info';
}

/** Where the server's renderer goes: beside the client's folder (src/server/site/pages.ts). */
export function serverOutDirFor(clientOutDir: string): string {
  return path.join(path.dirname(clientOutDir), 'server');
}

export async function buildSite(
  options: SiteBuild = {},
): Promise<{ clientOutDir: string; serverOutDir: string }> {
  const clientOutDir = options.clientOutDir ?? DEFAULT_CLIENT_OUT_DIR;
  const serverOutDir = serverOutDirFor(clientOutDir);
  const { build } = await import('vite');
  // Vite bakes process.env.NODE_ENV into the bundle; under a test runner it reads "test", which
  // would build React's development code.
  const nodeEnv = process.env.NODE_ENV;
  process.env.NODE_ENV = 'production';
  try {
    const common = {
      configFile: path.join(root, 'vite.config.ts'),
      mode: 'production',
      logLevel: options.logLevel ?? 'warn',
    } as const;
    await build({
      ...common,
      build: {
        outDir: clientOutDir,
        emptyOutDir: true,
        manifest: options.manifest ?? false,
        sourcemap: options.sourcemap ?? true,
      },
    });
    await build({
      ...common,
      // Self-contained (React and the rest bundled in), so it runs from any folder, e.g. the
      // benchmark's temporary one, and in the same production mode as the client's bundle.
      ssr: { noExternal: true },
      build: {
        ssr: 'entry-server.tsx',
        outDir: serverOutDir,
        emptyOutDir: true,
        sourcemap: false,
        copyPublicDir: false,
      },
    });
    // The operator console: a build of its own into the same folder (vite.config.ts), so that no
    // chunk is shared with the site's app and the site's first load stays as it is.
    process.env.CONSOLE_BUILD = '1';
    try {
      await build({
        ...common,
        build: {
          outDir: clientOutDir,
          emptyOutDir: false,
          copyPublicDir: false,
          sourcemap: options.sourcemap ?? true,
        },
      });
    } finally {
      delete process.env.CONSOLE_BUILD;
    }
  } finally {
    if (nodeEnv === undefined) delete process.env.NODE_ENV;
    else process.env.NODE_ENV = nodeEnv;
  }
  return { clientOutDir, serverOutDir };
}

// `--manifest` writes Vite's manifest too (the page benchmark builds an older commit this way).
// `npm run build` also makes the server's bundle: an image's `npm start` and `npm run admin` build
// nothing.
if (process.argv[1] === fileURLToPath(import.meta.url)) {
  await buildSite({ logLevel: 'info', manifest: process.argv.includes('--manifest') });
  await buildBundle();
}
