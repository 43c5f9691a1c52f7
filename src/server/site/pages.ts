import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { pageLabels } from '#shared/page-labels.ts';
import type { SiteConfig } from '#shared/site.ts';
import { renderIndexHtml } from './index-html.ts';
import { compressVariants, type CompressedVariants } from './precompress.ts';

/**
 * The site's pages as HTML, rendered once at start from the client's own components (the
 * renderer is src/client/entry-server.tsx, built beside the client by scripts/build-site.ts)
 * and kept as bytes, compressed. Every visitor gets the same bytes; what is theirs (the
 * signed-in header, live counts) fills in once the browser has taken the page over.
 */

/** Page paths the client router knows; every other page path is the 404 page. */
const PAGE_PATHS = ['/', '/shop'] as const;
/** Any path the router does not know renders the 404 page; this one stands for them all. */
const NOT_FOUND_PATH = '/404';
const EMPTY_ROOT = '<div id="root"></div>';

export interface PageBytes {
  status: number;
  body: CompressedVariants;
  /** A weak validator of the HTML (one for every encoding of it), for pages served with 200. */
  etag?: string;
}

export interface SitePages {
  /** The pre-rendered page for a page path: '/' and '/shop', else the 404 page. */
  pageFor(pathname: string): PageBytes;
  /**
   * index.html with the site's tags and facts and an empty root, for a page the server does not
   * pre-render: the browser renders it from nothing (e.g. a page that adds its own head tags).
   */
  shell: string;
}

/** Weak: the br, gzip and plain bytes of one page are the same HTML, so they share the tag. */
function weakEtag(html: Buffer): string {
  return `W/"${createHash('sha256').update(html).digest('base64url').slice(0, 27)}"`;
}

interface PageFacts {
  site: SiteConfig;
  labels: ReturnType<typeof pageLabels>;
}

/** Where the server's renderer is, for a client built into `clientDistDir`. */
function rendererFor(clientDistDir: string): string {
  return path.join(path.dirname(clientDistDir), 'server', 'entry-server.js');
}

/**
 * Renders the pages from the built client in `distDir`, or undefined when there is no build.
 * Without the renderer (a client built by plain `vite build`) every page is the shell, which
 * the browser renders from nothing, and `warn` says so.
 */
export async function renderSitePages(options: {
  distDir: string;
  site: SiteConfig;
  publicOrigin: string | undefined;
  now: number;
  warn: (message: string) => void;
}): Promise<SitePages | undefined> {
  const templateFile = path.join(options.distDir, 'index.html');
  if (!fs.existsSync(templateFile)) return undefined;
  const labels = pageLabels(options.site, options.now);
  const shell = renderIndexHtml(
    fs.readFileSync(templateFile, 'utf8'),
    options.site,
    options.publicOrigin,
    labels,
  );
  if (!shell.includes(EMPTY_ROOT)) throw new Error(`index.html lacks ${EMPTY_ROOT}`);

  const rendererFile = rendererFor(options.distDir);
  const pagePaths = [...PAGE_PATHS, NOT_FOUND_PATH];
  let htmls: string[] | undefined;
  if (fs.existsSync(rendererFile)) {
    htmls = await renderInWorker(rendererFile, pagePaths, { site: options.site, labels });
  } else {
    options.warn(`no page renderer at ${rendererFile}: pages are rendered in the browser`);
  }
  const bodies = pagePaths.map((_, i) => {
    const html = htmls?.[i];
    if (html === undefined) return compressVariants(shell);
    // A function replacement, so `$&` in the page is not read as a pattern.
    return compressVariants(shell.replace(EMPTY_ROOT, () => `<div id="root">${html}</div>`));
  });

  const pages = new Map<string, PageBytes>(
    PAGE_PATHS.map((pagePath, i) => [
      pagePath,
      { status: 200, body: bodies[i]!, etag: weakEtag(bodies[i]!.identity) },
    ]),
  );
  const notFound: PageBytes = { status: 404, body: bodies[PAGE_PATHS.length]! };
  return {
    pageFor: (pathname) => pages.get(pathname) ?? notFound,
    shell,
  };
}

/**
 * The pages' HTML, in the order of `pagePaths`, from the renderer run in a worker thread that
 * ends once it has answered. Not in the server's own thread: React's server renderer switches
 * on Node's async hooks (an AsyncLocalStorage) for the rest of the process once it has
 * rendered, and from then on every promise of every request pays for them (about a tenth of a
 * member's `GET /api/auth/me`, measured for issue 20). The thread also takes React's server
 * code with it when it ends.
 */
function renderInWorker(
  rendererFile: string,
  pagePaths: string[],
  facts: PageFacts,
): Promise<string[]> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(new URL('./render-worker.mjs', import.meta.url), {
      workerData: { rendererFile, pagePaths, facts },
    });
    worker.once('message', (htmls: string[]) => {
      resolve(htmls);
      void worker.terminate();
    });
    worker.once('error', reject);
    worker.once('exit', (code) =>
      reject(new Error(`the page renderer ended (exit code ${code}) before it answered`)),
    );
  });
}
