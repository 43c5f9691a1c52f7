import type { onRequestHookHandler } from 'fastify';
import { HttpError } from '../http-error.ts';

/**
 * With TRUST_PROXY, Fastify takes `request.protocol` from the proxy's X-Forwarded-Proto as it
 * comes: any text, which an origin built without PUBLIC_ORIGIN then reflected (og:url
 * `javascript://…` on a meme page, issue 30 finding 9). A proxy means one of two schemes; a
 * request that names another is refused before any route builds an origin from it.
 */
export const refuseUnknownProtocol: onRequestHookHandler = (request, _reply, done) => {
  if (request.headers['x-forwarded-proto'] === undefined) return done();
  const protocol = request.protocol;
  if (protocol === 'http' || protocol === 'https') return done();
  done(new HttpError(400, 'X-Forwarded-Proto must be http or https.', 'BAD_FORWARDED_PROTO'));
};
