import fs from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { compressVariants, pickEncoding, precompressDir } from '../site/precompress.ts';

/** Paths the client router knows; any other page path still gets the app, with a 404 status. */
const CLIENT_ROUTES = new Set(['/', '/shop']);

/**
 * Serves the built client: hashed files under /assets forever, everything else revalidated,
 * and index.html for page paths so the client router decides what to show.
 */
export async function registerStaticClient(
  app: FastifyInstance,
  distDir: string | undefined,
  renderIndex: (html: string) => string = (html) => html,
): Promise<string | undefined> {
  const indexFile = distDir ? path.join(distDir, 'index.html') : undefined;
  const indexHtml =
    indexFile && fs.existsSync(indexFile) ? renderIndex(fs.readFileSync(indexFile, 'utf8')) : undefined;
  const indexVariants = indexHtml ? compressVariants(indexHtml) : undefined;
  if (distDir && indexHtml) {
    precompressDir(distDir);
    await app.register(fastifyStatic, {
      root: distDir,
      index: false,
      wildcard: false,
      preCompressed: true,
      // Otherwise send's own "max-age=0" replaces the header setHeaders writes below.
      cacheControl: false,
      // Only through sendIndex, which serves the rendered page rather than the raw template.
      allowedPath: (pathname) => pathname !== '/index.html',
      setHeaders(res, filePath) {
        const immutable = filePath.startsWith(path.join(distDir, 'assets') + path.sep);
        res.setHeader('cache-control', immutable ? 'public, max-age=31536000, immutable' : 'public, max-age=3600');
      },
    });
  }

  const sendIndex = (request: FastifyRequest, reply: FastifyReply, status: number) => {
    const encoding = pickEncoding(request.headers['accept-encoding']);
    if (encoding !== 'identity') reply.header('content-encoding', encoding);
    return reply
      .code(status)
      .header('cache-control', 'no-cache')
      .header('vary', 'accept-encoding')
      .type('text/html; charset=utf-8')
      .send(indexVariants?.[encoding]);
  };

  app.setNotFoundHandler((request, reply) => {
    const pathname = request.url.split('?', 1)[0]!;
    const isPage =
      (request.method === 'GET' || request.method === 'HEAD') &&
      !pathname.startsWith('/api/') &&
      !pathname.startsWith('/objects/') &&
      !pathname.startsWith('/assets/') &&
      !path.extname(pathname);
    if (isPage && indexHtml) return sendIndex(request, reply, CLIENT_ROUTES.has(pathname) ? 200 : 404);
    return reply.code(404).send({ message: 'Not found', code: 'NOT_FOUND' });
  });
  /** The rendered page shell, for routes that serve pages of their own (memes/page-route.ts). */
  return indexHtml;
}
