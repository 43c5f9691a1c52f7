import { Redis } from 'ioredis';
import type { RateLimiter } from './rate-limit.ts';

// One round trip, atomic: count the hit and start the window on its first hit.
const HIT_SCRIPT = `
local count = redis.call('INCR', KEYS[1])
if count == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then redis.call('PEXPIRE', KEYS[1], ARGV[1]); ttl = tonumber(ARGV[1]) end
return {count, ttl}
`;
const UNDO_SCRIPT = `
local count = tonumber(redis.call('GET', KEYS[1]) or '0')
if count > 0 then redis.call('DECR', KEYS[1]) end
return 0
`;

/** A Redis that answers nothing within this is treated as down for that call. */
const COMMAND_TIMEOUT_MS = 500;

/**
 * Fixed-window counters in Redis (REDIS_URL), shared by every node like the SQL ones.
 *
 * While Redis is unreachable each call goes to `fallback` (the SQL counters) instead: neither
 * open (a Redis outage would lift the login throttle) nor closed (it would refuse every login,
 * registration and vote); see docs/decisions/015-dependency-failures.md. Commands fail at once
 * while disconnected (no offline queue) and after COMMAND_TIMEOUT_MS when Redis hangs, and
 * ioredis keeps reconnecting in the background, so Redis takes over again by itself.
 */
export function createRedisRateLimiter(
  url: string,
  fallback: RateLimiter,
  prefix = 'grind:rl:',
): RateLimiter & Required<Pick<RateLimiter, 'usingFallback'>> {
  const redis = new Redis(url, {
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    commandTimeout: COMMAND_TIMEOUT_MS,
    connectTimeout: 2_000,
    retryStrategy: (attempt) => Math.min(attempt * 200, 2_000),
  });
  // Without a listener ioredis reports each failed reconnect as an unhandled error event.
  redis.on('error', () => {});
  // Right after start-up the connection is not open yet; the first calls wait for it (once,
  // for at most the connect timeout) rather than count in SQL what belongs in Redis.
  const startup = new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, 2_000);
    timer.unref();
    redis.once('ready', () => {
      clearTimeout(timer);
      resolve();
    });
  });
  let lastCallFailed = false;
  const orFallback = async <T>(inRedis: () => Promise<T>, inSql: () => Promise<T>) => {
    await startup;
    try {
      const result = await inRedis();
      lastCallFailed = false;
      return result;
    } catch {
      lastCallFailed = true;
      return inSql();
    }
  };
  return {
    hit: (key, limit, windowMs) =>
      orFallback(
        async () => {
          const [count, ttl] = (await redis.eval(
            HIT_SCRIPT,
            1,
            prefix + key,
            String(windowMs),
          )) as [number, number];
          const allowed = count <= limit;
          return { allowed, retryAfterSeconds: allowed ? 0 : Math.max(1, Math.ceil(ttl / 1000)) };
        },
        () => fallback.hit(key, limit, windowMs),
      ),
    undo: (key) =>
      orFallback(
        async () => void (await redis.eval(UNDO_SCRIPT, 1, prefix + key)),
        () => fallback.undo(key),
      ),
    reset: (key) =>
      orFallback(
        async () => void (await redis.del(prefix + key)),
        () => fallback.reset(key),
      ),
    usingFallback: () => lastCallFailed || redis.status !== 'ready',
    async close() {
      // quit() waits for a reply a stopped Redis never sends.
      if (redis.status === 'ready') await redis.quit().catch(() => redis.disconnect());
      else redis.disconnect();
      await fallback.close();
    },
  };
}
