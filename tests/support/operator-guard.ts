import type { preHandlerHookHandler } from 'fastify';
import { HttpError } from '#server/http-error.ts';

/**
 * A stand-in for the console's operator guard (the console's `operatorOnly('admin')`, built at
 * the same time as the payment routes), for tests that mount those routes before it exists: a
 * visitor gets 401, a member whose name does not begin with "op" 403.
 */
export const forbiddenForTest: preHandlerHookHandler = (request, _reply, done) => {
  if (!request.user) return done(new HttpError(401, 'Authentication required', 'UNAUTHORIZED'));
  if (!request.user.username.startsWith('op')) {
    return done(new HttpError(403, 'Operators only', 'FORBIDDEN'));
  }
  done();
};
