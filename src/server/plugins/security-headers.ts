import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { AppConfig } from '../config.ts';
import { HttpError } from '../http-error.ts';
import { securityHeaders as buildHeaders } from '../http/security-headers.ts';
import { s3UploadOrigin } from '../storage/s3.ts';

const CHART_FRAME_ORIGIN = 'https://dexscreener.com';

/** The site's content security policy and the other security headers, on every answer. */
export const securityHeaders = fp(
  async (app: FastifyInstance, { config }: { config: AppConfig }) => {
    const headers = buildHeaders({
      contentSecurityPolicy: {
        useDefaults: false,
        directives: {
          defaultSrc: ["'self'"],
          scriptSrc: ["'self'"],
          // Radix's scroll lock injects a <style> element.
          styleSrc: ["'self'", "'unsafe-inline'"],
          imgSrc: ["'self'", 'data:', 'blob:'],
          fontSrc: ["'self'"],
          // The browser PUTs uploads straight to the bucket when images live in S3.
          connectSrc: ["'self'", ...(config.s3 ? [s3UploadOrigin(config.s3)] : [])],
          frameSrc: [CHART_FRAME_ORIGIN],
          objectSrc: ["'none'"],
          baseUri: ["'self'"],
          formAction: ["'self'"],
          frameAncestors: ["'none'"],
          manifestSrc: ["'self'"],
        },
      },
      crossOriginEmbedderPolicy: false,
      strictTransportSecurity: config.publicOrigin?.startsWith('https:') ? undefined : false,
    });

    // Callback-style: an async hook costs every request a promise.
    app.addHook('onRequest', (request, reply, done) => {
      const api = request.url.startsWith('/api/');
      reply.headers(api ? headers.api : headers.page);
      reply.header('x-request-id', request.id);
      // Only proxies are sent absolute-form targets ("POST http://host/api/..."); Fastify routes
      // one by its path, so a site that is no proxy refuses them rather than answer in two ways.
      if (!api && !request.url.startsWith('/')) {
        return done(new HttpError(400, 'The request target must be a path', 'BAD_REQUEST'));
      }
      done();
    });
  },
  { name: 'security-headers' },
);
