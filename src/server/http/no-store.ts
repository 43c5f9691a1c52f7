import type { FastifyReply, FastifyRequest } from 'fastify';

/**
 * A route hook (`preHandler: noStore`) for answers private to one caller or one moment (a
 * session, a run, the clock): no browser, proxy or CDN may keep them.
 */
export async function noStore(_request: FastifyRequest, reply: FastifyReply): Promise<void> {
  reply.header('cache-control', 'no-store');
}
