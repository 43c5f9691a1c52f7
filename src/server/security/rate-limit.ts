import { sql, type Kysely } from 'kysely';
import type { Clock } from '../clock.ts';
import type { Database } from '../db/database.ts';
import type { ErrorCode } from '#shared/api/error-codes.ts';
import { networkWidths } from '../http/client-network.ts';
import { HttpError } from '../http-error.ts';

interface RateLimitResult {
  allowed: boolean;
  retryAfterSeconds: number;
}

/** Fixed-window counters shared by every node (SQL here, Redis when REDIS_URL is set). */
export interface RateLimiter {
  hit(key: string, limit: number, windowMs: number): Promise<RateLimitResult>;
  /** Gives one hit back, e.g. after a successful login. */
  undo(key: string): Promise<void>;
  reset(key: string): Promise<void>;
  close(): Promise<void>;
  /** True while the shared store (Redis) is down and the SQL counters stand in for it. */
  usingFallback?(): boolean;
}

/** At most `limit` hits per `windowMs`. */
export interface RateRule {
  limit: number;
  windowMs: number;
}

/**
 * The keys one hit of `key` counts under, each with its share of the rule's limit. A key that
 * ends in a network (`…net:<clientNetwork(request)>`, the shape every per-network limit writes)
 * counts at each of the network's widths (`networkWidths`): an IPv6 /64 at the rule's limit
 * and, under the same key with its /48, at `WIDE_NETWORK_SHARE` times it, so walking the /64s
 * of one /48 gains a few allowances, not 65,536 (docs/decisions/018). Any other key counts once.
 */
export function rateKeys(key: string): { key: string; share: number }[] {
  const at = key.lastIndexOf('net:');
  // Network text never holds `net:`, so the last one starts the network, if it is one.
  if (at === -1 || (at > 0 && key[at - 1] !== ':')) return [{ key, share: 1 }];
  const head = key.slice(0, at + 4);
  return networkWidths(key.slice(at + 4)).map(({ network, share }) => ({
    key: head + network,
    share,
  }));
}

/**
 * The one way a throttle answers: counts one hit of `key` (at every width of its network, see
 * `rateKeys`) and, past the rule's limit at any of them, throws a 429 with `message` (or what
 * it makes of the wait, in seconds), `code` and Retry-After. The narrowest width is counted
 * first, and a refusal there counts no wider one, so a /64 past its own limit takes no more of
 * its /48's. Returns the key, for `giveBack`.
 */
export async function enforceRateLimit(
  limiter: RateLimiter,
  key: string,
  rule: RateRule,
  message: string | ((retryAfterSeconds: number) => string),
  code: ErrorCode = 'RATE_LIMITED',
): Promise<string> {
  for (const width of rateKeys(key)) {
    const result = await limiter.hit(width.key, rule.limit * width.share, rule.windowMs);
    if (!result.allowed) {
      const text = typeof message === 'string' ? message : message(result.retryAfterSeconds);
      throw new HttpError(429, text, code, {
        'retry-after': String(result.retryAfterSeconds),
      });
    }
  }
  return key;
}

/** What a key's caller part names: `<limit>:<kind>:<caller>`, as every throttle writes its keys. */
const CALLER_KINDS = new Set(['net', 'user', 'account', 'device']);

/**
 * The limit a key counts for and the kind of caller it counts (`login` and `net` for
 * `login:net:203.0.113.7`): the refusals metric's labels, so the caller itself (a network, an id,
 * a name) never becomes one. A key of another shape reads as `other`.
 */
function limitOfKey(key: string): { limit: string; scope: string } {
  const parts = key.split(':');
  const at = parts.findIndex((part) => CALLER_KINDS.has(part));
  const name = parts.slice(0, Math.max(at, 0));
  if (at < 1 || !name.every((part) => /^[a-z][a-z0-9-]*$/.test(part))) {
    return { limit: 'other', scope: 'other' };
  }
  return { limit: name.join(':'), scope: parts[at]! };
}

/** `limiter`, telling `refused` the limit (limitOfKey) of every hit it refuses. */
export function countingRefusals(
  limiter: RateLimiter,
  refused: (limit: { limit: string; scope: string }) => void,
): RateLimiter {
  const { usingFallback } = limiter;
  return {
    async hit(key, limit, windowMs) {
      const result = await limiter.hit(key, limit, windowMs);
      if (!result.allowed) refused(limitOfKey(key));
      return result;
    },
    undo: (key) => limiter.undo(key),
    reset: (key) => limiter.reset(key),
    close: () => limiter.close(),
    ...(usingFallback && { usingFallback: () => usingFallback.call(limiter) }),
  };
}

/** Gives back a hit `enforceRateLimit` counted for `key`, at every width it counted. */
export async function giveBack(limiter: RateLimiter, key: string): Promise<void> {
  for (const width of rateKeys(key)) await limiter.undo(width.key);
}

/** Clears `key`'s counters at every width (a success that ends a run of failures). */
export async function resetRateLimit(limiter: RateLimiter, key: string): Promise<void> {
  for (const width of rateKeys(key)) await limiter.reset(width.key);
}

export function createSqlRateLimiter(db: Kysely<Database>, clock: Clock): RateLimiter {
  return {
    async hit(key, limit, windowMs) {
      const now = clock.now();
      const expired = sql<boolean>`rate_limits.window_start <= ${now - windowMs}`;
      const row = await db
        .insertInto('rate_limits')
        .values({ key, window_start: now, count: 1 })
        .onConflict((oc) =>
          oc.column('key').doUpdateSet({
            count: sql`CASE WHEN ${expired} THEN 1 ELSE rate_limits.count + 1 END`,
            window_start: sql`CASE WHEN ${expired} THEN ${now} ELSE rate_limits.window_start END`,
          }),
        )
        .returning(['count', 'window_start'])
        .executeTakeFirstOrThrow();
      const allowed = row.count <= limit;
      const retryAfterSeconds = allowed
        ? 0
        : Math.max(1, Math.ceil((Number(row.window_start) + windowMs - now) / 1000));
      return { allowed, retryAfterSeconds };
    },
    async undo(key) {
      await db
        .updateTable('rate_limits')
        .set({ count: sql`count - 1` })
        .where('key', '=', key)
        .where('count', '>', 0)
        .execute();
    },
    async reset(key) {
      await db.deleteFrom('rate_limits').where('key', '=', key).execute();
    },
    async close() {},
  };
}

/**
 * Fixed-window counters held by this process alone, for refusals that must write nothing to the
 * shared store: a report for a run that does not exist (game/runs.ts) is counted here, so a
 * flood of made-up run ids gets 429 without a row per id, or any row at all (issue 30, finding
 * 2). Each node counts its own callers. At most `maxKeys` windows are kept; a new one past that
 * drops the oldest.
 */
export function createMemoryRateLimiter(clock: Clock, maxKeys = 10_000): RateLimiter {
  const windows = new Map<string, { start: number; count: number }>();
  return {
    async hit(key, limit, windowMs) {
      const now = clock.now();
      let window = windows.get(key);
      if (!window || window.start <= now - windowMs) {
        // Re-inserted, so the map stays in order of window start: the first is the oldest.
        windows.delete(key);
        if (windows.size >= maxKeys) windows.delete(windows.keys().next().value!);
        window = { start: now, count: 0 };
        windows.set(key, window);
      }
      window.count += 1;
      const allowed = window.count <= limit;
      const retryAfterSeconds = allowed
        ? 0
        : Math.max(1, Math.ceil((window.start + windowMs - now) / 1000));
      return { allowed, retryAfterSeconds };
    },
    async undo(key) {
      const window = windows.get(key);
      if (window && window.count > 0) window.count -= 1;
    },
    async reset(key) {
      windows.delete(key);
    },
    async close() {
      windows.clear();
    },
  };
}

/** Forgets windows that ended long ago; called from the app's maintenance timer. */
export async function pruneRateLimits(db: Kysely<Database>, olderThan: number): Promise<void> {
  await db.deleteFrom('rate_limits').where('window_start', '<', olderThan).execute();
}
