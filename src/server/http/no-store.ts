import type { FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';

/**
 * The hook for answers private to one caller or one moment (a session, a wallet, a run, the
 * clock): no browser, proxy or CDN may keep them. A route's `preHandler`, or a whole plugin's
 * `onRequest` where its errors must not be kept either. Callback-style: an async hook costs
 * every request a promise.
 */
export function noStore(
  _request: FastifyRequest,
  reply: FastifyReply,
  done: HookHandlerDoneFunction,
): void {
  reply.header('cache-control', 'no-store');
  done();
}
