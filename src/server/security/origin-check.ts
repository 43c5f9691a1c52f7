import type { FastifyRequest } from 'fastify';
import { HttpError } from '../http-error.ts';
import { isMutating } from './csrf.ts';

/** Refuses a state-changing request that a browser says came from another site. */
export function assertSameOrigin(request: FastifyRequest): void {
  if (!isMutating(request.method)) return;
  const fetchSite = request.headers['sec-fetch-site'];
  if (fetchSite === 'cross-site' || fetchSite === 'same-site') {
    throw new HttpError(403, 'Forbidden: cross-site request refused', 'CROSS_SITE');
  }
  const origin = request.headers.origin;
  if (origin === undefined) return;
  const expected =
    request.server.deps.config.publicOrigin ?? `${request.protocol}://${request.host}`;
  if (origin !== expected) {
    throw new HttpError(403, 'Forbidden: cross-site request refused', 'CROSS_SITE');
  }
}
