import path from 'node:path';
import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';

/** Where the build names the console's entry chunks (read by the server). */
const CONSOLE_ENTRY_FILE = 'console-entry.txt';

const apiTarget = `http://127.0.0.1:${process.env.API_PORT ?? '3001'}`;
const client = (file: string) => path.resolve(import.meta.dirname, 'src/client', file);

export default defineConfig(({ isSsrBuild }) => ({
  root: 'src/client',
  publicDir: '../../public',
  plugins: [react(), tailwindcss(), appAfterFirstPaint()],
  resolve: {
    alias: {
      // wouter reaches useSyncExternalStore through the shim for React < 18, which carries a
      // copy of it; React 19 has its own.
      'use-sync-external-store/shim/index.js': 'react',
    },
  },
  build: {
    outDir: '../../dist/client',
    emptyOutDir: true,
    assetsDir: 'assets',
    sourcemap: true,
    // Every browser the site supports preloads modules itself; the polyfill was first-load weight.
    modulePreload: { polyfill: false },
    // The page (index.html, whose one script is boot.ts) and the app boot.ts starts (main.tsx):
    // two entries, so the app's code is not fetched with the page (see appAfterFirstPaint).
    // Vite drops an entry's exports by default; boot.ts calls the app's startApp.
    rolldownOptions: isSsrBuild
      ? {}
      : {
          // The operator console is built on its own (scripts/build-site.ts), started in place of
          // the app on /admin: sharing no chunk with the app, it changes nothing of the site's.
          input: (process.env.CONSOLE_BUILD
            ? { console: client('console-main.tsx') }
            : { index: client('index.html'), app: client('main.tsx') }) as Record<string, string>,
          preserveEntrySignatures: 'allow-extension' as const,
          // React DOM in a chunk of its own, which boot.ts loads in a task of its own: loaded
          // and compiled with the app's code in one go, it made the start-up's longest task
          // (decision 025). Being CommonJS, its code still runs when the app first requires it.
          output: {
            codeSplitting: {
              groups: [
                { name: 'react-dom', test: /node_modules[\\/](react-dom|scheduler)[\\/]/ },
                // Every lucide icon the later parts draw, in one chunk: one request, not a dozen
                // of 300 bytes, and a dozen fewer names in the app chunk's preload map. The first
                // screen draws its own (first-load-icons.tsx), so the first load carries none.
                { name: 'icons', test: /node_modules[\\/]lucide-react[\\/]/ },
              ],
            },
          },
        },
  },
  server: {
    port: Number(process.env.PORT ?? 3000),
    strictPort: true,
    proxy: {
      '/api': apiTarget,
      '/objects': apiTarget,
    },
  },
}));

/**
 * The page's HTML is the whole page, so the app starts once it is painted (boot.ts). Its entry
 * chunk and the chunks that imports are named on boot's script tag (`data-app`) for boot to
 * fetch then, instead of being preloaded by the HTML: until the first paint, the document and
 * the stylesheet have a slow phone's bandwidth and main thread to themselves. The boot script
 * itself gets a low fetch priority for the same reason (Chromium gives module scripts High).
 */
function appAfterFirstPaint(): Plugin {
  return {
    name: 'app-after-first-paint',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler(html, { bundle }) {
        const chunks = Object.values(bundle ?? {});
        const app = chunks.find(
          (chunk) => chunk.type === 'chunk' && chunk.facadeModuleId === client('main.tsx'),
        );
        if (app?.type !== 'chunk') throw new Error('the build has no app entry (main.tsx)');
        const files = new Set<string>();
        const visit = (file: string) => {
          const chunk = bundle?.[file];
          if (files.has(file) || chunk?.type !== 'chunk') return;
          files.add(file);
          chunk.imports.forEach(visit);
        };
        visit(app.fileName);
        const urls = [...files].map((file) => `/${file}`).join(' ');
        return html.replace('<script type="module"', `$& fetchpriority="low" data-app="${urls}"`);
      },
    },
    // The console's entry and its imports, for the server to name on /admin's boot script
    // (src/server/console/page-route.ts) in place of the app's.
    generateBundle(_options, bundle) {
      const entry = Object.values(bundle).find(
        (chunk) => chunk.type === 'chunk' && chunk.facadeModuleId === client('console-main.tsx'),
      );
      if (entry?.type !== 'chunk') return;
      const files = new Set<string>();
      const visit = (file: string) => {
        const chunk = bundle[file];
        if (files.has(file) || chunk?.type !== 'chunk') return;
        files.add(file);
        chunk.imports.forEach(visit);
      };
      visit(entry.fileName);
      this.emitFile({
        type: 'asset',
        fileName: CONSOLE_ENTRY_FILE,
        source: [...files].map((file) => `/${file}`).join(' '),
      });
    },
  };
}
