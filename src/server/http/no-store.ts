import type { FastifyReply, FastifyRequest } from 'fastify';

/**
 * The hook for answers private to one caller or one moment (a session, a wallet, a run, the
 * clock): no browser, proxy or CDN may keep them. A route's `preHandler`, or a whole plugin's
 * `onSend` where its errors must not be kept either.
 */
export async function noStore(_request: FastifyRequest, reply: FastifyReply): Promise<void> {
  reply.header('cache-control', 'no-store');
}
