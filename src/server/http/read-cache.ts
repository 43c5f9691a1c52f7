import type { FastifyReply } from 'fastify';
import { LRUCache } from 'lru-cache';

/**
 * How long a node keeps a shared read, and how long a proxy or CDN may (docs/decisions/011).
 * A reader on another node sees a write at most this late, plus one query.
 */
export const READ_CACHE_TTL_MS = 1000;

/**
 * The one read-cache rule (docs/decisions/011-one-read-cache-rule.md), for answers that are the
 * same for every reader of one query (the leaderboard, gallery pages):
 * - an answer is kept for `ttlMs` under its query's normalised key; past that the old answer is
 *   still served while one load replaces it (one load per key at a time, whoever asks);
 * - this node's own writes call `clear()`: nothing loaded before the write is served after it;
 * - a failed load is not cached and drops the old answer, so a failing database shows as errors.
 * Built on lru-cache's fetch (single flight, stale-while-revalidate, size bound).
 */
export class ReadCache<V extends object> {
  private readonly lru: LRUCache<string, V, () => Promise<V>>;

  /**
   * `serveStale: false` for answers that must never outlive their lifetime (sessions): past it a
   * reader waits for the load instead of getting the old answer.
   */
  constructor(options: { now: () => number; ttlMs?: number; max?: number; serveStale?: boolean }) {
    this.lru = new LRUCache<string, V, () => Promise<V>>({
      max: options.max ?? 500,
      ttl: options.ttlMs ?? READ_CACHE_TTL_MS,
      // Checked on read (no timer per entry); the clock is the app's, so tests can move it.
      ttlAutopurge: false,
      ttlResolution: 0,
      perf: { now: options.now },
      allowStale: options.serveStale ?? true,
      // A write's clear() aborts loads under way: their callers get the old answer if there is
      // one (they asked before the write), and the aborted load's result is not kept.
      allowStaleOnFetchAbort: true,
      fetchMethod: (_key, _stale, { context }) => context(),
    });
  }

  /** The answer for `key`: from memory, or one `load` shared by everyone asking meanwhile. */
  async get(key: string, load: () => Promise<V>): Promise<V> {
    const cached = await this.lru.fetch(key, { context: load });
    // Undefined only when a write aborted a first load this caller joined: load after the write.
    return cached ?? load();
  }

  /**
   * The answer kept for `key` while it is within its lifetime, without loading or waiting: the
   * hit path of a hook that would otherwise pay a promise for every request.
   */
  fresh(key: string): V | undefined {
    return this.lru.get(key, { allowStale: false });
  }

  /** After this node's write: every later read loads afresh. */
  clear(): void {
    this.lru.clear();
  }

  /** After this node's write that changes one key's answer only. */
  delete(key: string): void {
    this.lru.delete(key);
  }

  get size(): number {
    return this.lru.size;
  }
}

/**
 * Headers of a shared read: browsers ask again each time (so a member sees their own write at
 * once), while a proxy or CDN may answer it for `READ_CACHE_TTL_MS`, as a node does.
 */
export function sharedReadHeaders(reply: FastifyReply): FastifyReply {
  return reply.header(
    'cache-control',
    `public, max-age=0, s-maxage=${Math.ceil(READ_CACHE_TTL_MS / 1000)}`,
  );
}
