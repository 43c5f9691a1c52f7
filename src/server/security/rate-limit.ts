import { sql, type Kysely } from 'kysely';
import type { Clock } from '../clock.ts';
import type { Database } from '../db/database.ts';
import { HttpError } from '../http-error.ts';

export interface RateLimitResult {
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
 * The one way a throttle answers: counts one hit of `key` and, past the rule's limit, throws a
 * 429 with `message` and Retry-After. Returns the key, for a caller that gives the hit back.
 */
export async function enforceRateLimit(
  limiter: RateLimiter,
  key: string,
  rule: RateRule,
  message: string,
): Promise<string> {
  const result = await limiter.hit(key, rule.limit, rule.windowMs);
  if (!result.allowed) {
    throw new HttpError(429, message, 'RATE_LIMITED', {
      'retry-after': String(result.retryAfterSeconds),
    });
  }
  return key;
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
