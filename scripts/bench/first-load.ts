/**
 * The page's first-load JavaScript: what the browser must fetch and run before the page works,
 * gzipped. That is every entry chunk (the page's boot.ts and the app it starts once the page is
 * painted, main.tsx) and every chunk they import statically. Chunks behind a dynamic import()
 * load on demand and do not count. Deterministic for a given source tree, so a test can hold
 * the line that the benchmark reports.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';

// Issue 24's line, held by the test and printed as the benchmark's target: the server renders
// the page, so what is below the hero, the launch countdown, the query client, the dialogs and
// the toasts all load after it is interactive.
export const FIRST_LOAD_BUDGET_BYTES = 80 * 1024;

const root = path.resolve(import.meta.dirname, '../..');

interface ManifestChunk {
  file: string;
  isEntry?: boolean;
  imports?: string[];
  dynamicImports?: string[];
  css?: string[];
}

export interface FirstLoadReport {
  files: Array<{ file: string; bytes: number; gzipBytes: number }>;
  jsGzipBytes: number;
  cssGzipBytes: number;
  /** Every JavaScript file the build produced, first load or not, gzipped. */
  allJsGzipBytes: number;
}

export function gzipSize(file: string): number {
  return gzipSync(fs.readFileSync(file)).length;
}

/** Reads a build made with `build.manifest: true` (see buildClientForMeasurement). */
export function measureFirstLoad(distDir: string): FirstLoadReport {
  const manifestPath = path.join(distDir, '.vite', 'manifest.json');
  const manifest = JSON.parse(fs.readFileSync(manifestPath, 'utf8')) as Record<
    string,
    ManifestChunk
  >;
  const entries = Object.keys(manifest).filter((key) => manifest[key]!.isEntry);
  if (entries.length === 0) throw new Error('the build has no entry chunk');

  const seen = new Set<string>();
  const visit = (key: string) => {
    if (seen.has(key)) return;
    seen.add(key);
    for (const next of manifest[key]?.imports ?? []) visit(next);
  };
  entries.forEach(visit);

  const jsFiles = [...seen].map((key) => manifest[key]!.file);
  const cssFiles = [...new Set([...seen].flatMap((key) => manifest[key]!.css ?? []))];
  const files = jsFiles.map((file) => {
    const full = path.join(distDir, file);
    return { file, bytes: fs.statSync(full).size, gzipBytes: gzipSize(full) };
  });
  const assets = path.join(distDir, 'assets');
  return {
    files,
    jsGzipBytes: files.reduce((sum, f) => sum + f.gzipBytes, 0),
    cssGzipBytes: cssFiles.reduce((sum, file) => sum + gzipSize(path.join(distDir, file)), 0),
    allJsGzipBytes: fs
      .readdirSync(assets)
      .filter((name) => name.endsWith('.js'))
      .reduce((sum, name) => sum + gzipSize(path.join(assets, name)), 0),
  };
}

/**
 * Builds the client as production does, into a folder of its own (never dist/client, which a
 * running server or another build may be using), with Vite's manifest for the import graph.
 */
export async function buildClientForMeasurement(outDir?: string): Promise<string> {
  const target = outDir ?? fs.mkdtempSync(path.join(os.tmpdir(), 'grind-client-'));
  const { build } = await import('vite');
  // Vite bakes process.env.NODE_ENV into the bundle; under a test runner it reads "test", which
  // would measure React's development build.
  const nodeEnv = process.env.NODE_ENV;
  process.env.NODE_ENV = 'production';
  try {
    await build({
      configFile: path.join(root, 'vite.config.ts'),
      mode: 'production',
      logLevel: 'silent',
      build: { outDir: target, emptyOutDir: true, manifest: true, sourcemap: false },
    });
  } finally {
    process.env.NODE_ENV = nodeEnv;
  }
  return target;
}

export function formatKb(bytes: number): string {
  return `${(bytes / 1024).toFixed(1)} KB`;
}
