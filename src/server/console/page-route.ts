import fs from 'node:fs';
import path from 'node:path';
import type { FastifyPluginAsync, FastifyReply } from 'fastify';
import { CONSOLE_PAGE } from '#shared/api/paths.ts';
import type { SitePages } from '../site/pages.ts';

const NOINDEX = '<meta name="robots" content="noindex, nofollow">';
/** Written by the build (vite.config.ts): the console entry's chunk and what it imports. */
const CONSOLE_ENTRY_FILE = 'console-entry.txt';

/**
 * GET /admin and its pages: the client's shell whose boot script starts the console's own entry
 * instead of the site's app, so nothing of the console is in any other page's load. Never
 * indexed, never stored, the same bytes for everybody: what an operator sees comes only through
 * /api/admin/*. Undefined without a built console entry.
 */
export function adminPageRoute(pages: SitePages, distDir: string): FastifyPluginAsync | undefined {
  const entryFile = path.join(distDir, CONSOLE_ENTRY_FILE);
  if (!fs.existsSync(entryFile)) return undefined;
  const entry = fs.readFileSync(entryFile, 'utf8').trim();
  const html = pages.shell
    .replace('<head>', `<head>${NOINDEX}`)
    .replace(/data-app="[^"]*"/, () => `data-app="${entry}"`);
  const send = (reply: FastifyReply) =>
    reply
      .type('text/html; charset=utf-8')
      .header('cache-control', 'no-store')
      .header('x-robots-tag', 'noindex, nofollow')
      .send(html);
  return async (app) => {
    app.get(CONSOLE_PAGE, (_request, reply) => send(reply));
    app.get(`${CONSOLE_PAGE}/*`, (_request, reply) => send(reply));
  };
}
