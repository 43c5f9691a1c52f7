import { randomBytes } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

/** What a proxy's X-Request-ID must look like to be taken over into our logs and answers. */
const PROXY_REQUEST_ID = /^[\w-]{1,64}$/;

/**
 * Request ids: the proxy's X-Request-ID when the proxy is trusted and the id is well-formed,
 * else this process's random prefix and a counter. The prefix (48 random bits, new on every
 * start) keeps ids apart across nodes and restarts, with nothing random drawn per request.
 */
export function requestIdGenerator(trustProxy: boolean): (req: IncomingMessage) => string {
  const prefix = randomBytes(6).toString('hex');
  let sequence = 0;
  return (req) => {
    const fromProxy = trustProxy ? req.headers['x-request-id'] : undefined;
    if (typeof fromProxy === 'string' && PROXY_REQUEST_ID.test(fromProxy)) return fromProxy;
    sequence += 1;
    return `${prefix}-${sequence.toString(36)}`;
  };
}
