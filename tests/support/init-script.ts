import { buildSync } from 'esbuild';

/**
 * The module at `file` and all it imports, bundled as one script a page runs before its own:
 * `page.addInitScript({ content })`.
 */
export function bundledInitScript(file: string): string {
  const bundle = buildSync({
    entryPoints: [file],
    bundle: true,
    format: 'iife',
    target: 'es2022',
    write: false,
  });
  return bundle.outputFiles[0]!.text;
}
