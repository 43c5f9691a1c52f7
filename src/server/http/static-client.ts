import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { SiteConfig } from '#shared/site.ts';
import { renderSitePages, type PageBytes, type SitePages } from '../site/pages.ts';
import { pickEncoding, precompressDir } from '../site/precompress.ts';

/**
 * Answers with pre-rendered HTML in the encoding the request accepts. `no-cache` makes a browser
 * ask every time; the page's ETag lets it be told "304 Not Modified" instead of fetching the page
 * again, until a restart renders different HTML.
 */
export function sendPage(request: FastifyRequest, reply: FastifyReply, page: PageBytes) {
  reply.header('cache-control', 'no-cache').header('vary', 'accept-encoding');
  if (page.etag) {
    reply.header('etag', page.etag);
    if (matchesEtag(request.headers['if-none-match'], page.etag)) return reply.code(304).send();
  }
  const encoding = pickEncoding(request.headers['accept-encoding']);
  if (encoding !== 'identity') reply.header('content-encoding', encoding);
  return reply.code(page.status).type('text/html; charset=utf-8').send(page.body[encoding]);
}

/** If-None-Match's weak comparison (RFC 9110, 13.1.2): a listed tag or `*` matches. */
function matchesEtag(ifNoneMatch: string | undefined, etag: string): boolean {
  if (!ifNoneMatch) return false;
  const opaque = (tag: string) => tag.trim().replace(/^W\//, '');
  return (
    ifNoneMatch.trim() === '*' || ifNoneMatch.split(',').some((tag) => opaque(tag) === opaque(etag))
  );
}

/**
 * Serves the built client: hashed files under /assets forever, everything else revalidated,
 * and the pages, rendered once at start (site/pages.ts), for page paths. Returns the pages, or
 * undefined without a built client.
 */
export async function registerStaticClient(
  app: FastifyInstance,
  distDir: string | undefined,
  facts: { site: SiteConfig; publicOrigin: string | undefined; now: number },
): Promise<SitePages | undefined> {
  const pages = distDir
    ? await renderSitePages({ distDir, ...facts, warn: (message) => app.log.warn(message) })
    : undefined;
  if (distDir && pages) {
    precompressDir(distDir);
    await app.register(fastifyStatic, {
      root: distDir,
      index: false,
      wildcard: false,
      preCompressed: true,
      // Otherwise send's own "max-age=0" replaces the header setHeaders writes below.
      cacheControl: false,
      // Only as a rendered page, never the raw template.
      allowedPath: (pathname) => pathname !== '/index.html',
      setHeaders(res, filePath) {
        const immutable = filePath.startsWith(path.join(distDir, 'assets') + path.sep);
        res.setHeader(
          'cache-control',
          immutable ? 'public, max-age=31536000, immutable' : 'public, max-age=3600',
        );
      },
    });
  }

  app.setNotFoundHandler((request, reply) => {
    const pathname = request.url.split('?', 1)[0]!;
    const isPage =
      (request.method === 'GET' || request.method === 'HEAD') &&
      !pathname.startsWith('/api/') &&
      !pathname.startsWith('/objects/') &&
      !pathname.startsWith('/assets/') &&
      !path.extname(pathname);
    if (isPage && pages) return sendPage(request, reply, pages.pageFor(pathname));
    return reply.code(404).send({ message: 'Not found', code: 'NOT_FOUND' });
  });
  return pages;
}
