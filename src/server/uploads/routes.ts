import type { FastifyPluginAsync } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import sharp from 'sharp';
import { memeImageEndpoint, uploadTargetEndpoint } from '#shared/api/memes.ts';
import { localUploadEndpoint } from '#shared/api/uploads.ts';
import { endpointRoute } from '../http/endpoint-route.ts';
import { notFound } from '../http-error.ts';
import { type LocalDiskStore } from '../storage/local-disk.ts';
import { createImageProcessor } from './image-processing.ts';
import { screenImage, warmClassifier } from './screening.ts';
import { isServableKey, OBJECTS_PREFIX } from '../memes/object-paths.ts';
import {
  IMMUTABLE_CACHE,
  issueUploadTarget,
  processUpload,
  pruneUploads,
  receiveLocalUpload,
  type UploadContext,
} from './service.ts';

/**
 * Decoded images are never asked for twice, so libvips' operation cache would only hold memory
 * (up to 50 MB by default) on a server whose memory the upload queue is meant to bound.
 */
sharp.cache(false);

export const uploadRoutes: FastifyPluginAsyncZod = async (app) => {
  const store = app.deps.objectStore;
  if (!store) throw new Error('uploadRoutes needs deps.objectStore');
  const ctx: UploadContext = {
    deps: app.deps,
    store,
    // Two images at a time per node, one per member (decoding takes up to ~200 MB for a
    // 40-megapixel photo): one member's slow files leave the other slot to everybody else.
    processor: createImageProcessor({
      concurrency: 2,
      timed: (seconds) => app.deps.metrics.imageProcessing.observe(seconds),
    }),
    ...(app.deps.config.screening.enabled && { screen: (image: Buffer) => screenImage(image) }),
  };
  // The classifier's model loads in its thread as the server starts (once per process).
  if (ctx.screen) {
    warmClassifier().catch((err: unknown) => app.log.warn({ err }, 'image classifier not loaded'));
  }
  const { processor } = ctx;
  app.deps.metrics.readers.imageQueue = () => ({
    running: processor.running,
    waiting: processor.pending - processor.running,
  });

  app.maintenance.add('uploads', (now) => pruneUploads(ctx, now));

  endpointRoute(app, uploadTargetEndpoint, async (request, reply) => {
    reply.header('cache-control', 'no-store');
    return issueUploadTarget(ctx, request.user);
  });

  endpointRoute(app, memeImageEndpoint, async (request) =>
    processUpload(ctx, request.user, request.body.imageUrl),
  );

  if (store.kind === 'local') await app.register(localUploadRoute(ctx, store as LocalDiskStore));
};

/** Stored images, served to everybody (a public read, outside the session scope). */
export const objectRoutes: FastifyPluginAsyncZod = async (app) => {
  const store = app.deps.objectStore;
  if (!store) throw new Error('objectRoutes needs deps.objectStore');
  // The stored files themselves, not part of the API: out of its OpenAPI document.
  app.get(`${OBJECTS_PREFIX}*`, { schema: { hide: true } }, async (request, reply) => {
    const key = (request.params as { '*': string })['*'];
    if (!isServableKey(key)) throw notFound();
    const etag = `"${key.slice(key.lastIndexOf('/') + 1)}"`;
    reply.headers({
      'x-content-type-options': 'nosniff',
      // Even if a browser were talked into rendering one of these as a document, it could run
      // nothing and reach nothing.
      'content-security-policy': "default-src 'none'; sandbox",
      'cache-control': IMMUTABLE_CACHE,
      etag,
    });
    if (request.headers['if-none-match'] === etag) return reply.code(304).send();
    const object = await store.readObject(key);
    if (!object) {
      reply.header('cache-control', 'no-store');
      throw notFound();
    }
    return reply.type(object.contentType).header('content-length', object.size).send(object.body);
  });
};

/**
 * The local store's upload URL. Its own plugin scope, so the raw-body parser it needs (any
 * content type, streamed to disk, never buffered) does not touch the JSON routes.
 */
function localUploadRoute(ctx: UploadContext, store: LocalDiskStore): FastifyPluginAsync {
  return async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', (_request, _payload, done) => done(null, undefined));
    endpointRoute(scope, localUploadEndpoint, async (request) => {
      const length = Number(request.headers['content-length']);
      return receiveLocalUpload(
        ctx,
        store,
        request.params['*'],
        request.raw,
        Number.isFinite(length) ? length : undefined,
      );
    });
  };
}
