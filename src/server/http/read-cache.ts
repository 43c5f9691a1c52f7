import type { FastifyReply } from 'fastify';
import { LRUCache } from 'lru-cache';
import type { Clock } from '../clock.ts';

/**
 * How long a node's shared read is fresh, and how long a proxy or CDN may keep it
 * (docs/decisions/011). A reader on another node sees a write at most READ_CACHE_LONGEST_MS late.
 */
export const READ_CACHE_TTL_MS = 1000;
/** No kept answer older than this is served: past it a reader waits for the load. */
export const READ_CACHE_LONGEST_MS = 2 * READ_CACHE_TTL_MS;

/** An answer as kept: with when its load began, and how many marks it had seen by then. */
interface Kept<V> {
  value: V;
  loadedAt: number;
  generation: number;
}

/**
 * The one read-cache rule (docs/decisions/011-one-read-cache-rule.md), for answers that are the
 * same for every reader of one query (the leaderboard, gallery pages) or one key (sessions):
 * - an answer is fresh for READ_CACHE_TTL_MS under its query's normalised key; past that, and
 *   after a write `markStale()` reported, it is still served while one load replaces it (one load
 *   per key at a time, whoever asks), but never past READ_CACHE_LONGEST_MS: then readers wait;
 * - the writer named to `markStale()` is not served an answer loaded before their write;
 * - `clear()`: nothing loaded before it is served after it, to anyone;
 * - a failed load is not kept and drops the old answer, so a failing database shows as errors.
 * Built on lru-cache's fetch (single flight, lifetimes, size bound).
 */
export class ReadCache<V extends object> {
  private readonly lru: LRUCache<string, Kept<V>, () => Promise<V>>;
  /** Writers named to markStale(), with the generation their own reads need. */
  private readonly writers: LRUCache<string, number>;
  private readonly clock: Clock;
  /** How many times markStale() was called: an answer loaded under an older one predates it. */
  private generation = 0;

  constructor(options: { clock: Clock; max?: number }) {
    this.clock = options.clock;
    // Lifetimes are checked on read (no timer per entry), on the app's clock so tests can move it.
    const lifetime = {
      ttl: READ_CACHE_LONGEST_MS,
      ttlAutopurge: false,
      ttlResolution: 0,
      perf: { now: () => this.clock.now() },
    };
    this.lru = new LRUCache<string, Kept<V>, () => Promise<V>>({
      ...lifetime,
      max: options.max ?? 500,
      // Past READ_CACHE_LONGEST_MS nobody gets the old answer: they wait for the load.
      allowStale: false,
      // clear() aborts loads under way: their callers get the old answer if there is one (they
      // asked before the write), and the aborted load's result is not kept.
      allowStaleOnFetchAbort: true,
      fetchMethod: async (_key, _stale, { context, options: setOptions }) => {
        const loadedAt = this.clock.now();
        const generation = this.generation;
        const value = await context();
        // An answer's lifetime is counted from the start of its load, not its end (never 0,
        // which lru-cache reads as "forever").
        setOptions.ttl = Math.max(1, READ_CACHE_LONGEST_MS - (this.clock.now() - loadedAt));
        return { value, loadedAt, generation };
      },
    });
    this.writers = new LRUCache<string, number>({ ...lifetime, max: 10_000 });
  }

  /**
   * The answer for `key`: from memory, or one `load` shared by everyone asking meanwhile.
   * `reader` names the caller as `markStale()` named a writer.
   */
  async get(key: string, load: () => Promise<V>, reader?: string): Promise<V> {
    // A kept answer younger than its lifetime, also while a load replaces it; else the caller
    // waits for the load (joining the one under way, if any).
    const kept = this.lru.get(key) ?? (await this.lru.fetch(key, { context: load }));
    // Undefined only when clear() aborted a first load this caller joined: load after it.
    if (!kept) return load();
    const needs = reader === undefined ? 0 : (this.writers.get(reader) ?? 0);
    if (kept.generation < needs) {
      // The caller wrote since this answer was loaded: they wait for one that has their write.
      const fresh = await this.lru.fetch(key, { context: load, forceRefresh: true });
      return fresh && fresh.generation >= needs ? fresh.value : load();
    }
    if (!this.isFresh(kept)) {
      // Served as it is while one load replaces it (a load under way is joined, not repeated).
      void this.lru.fetch(key, { context: load, forceRefresh: true, allowStale: true });
    }
    return kept.value;
  }

  /**
   * The answer kept for `key` while it is fresh, without loading or waiting: the hit path of a
   * hook that would otherwise pay a promise for every request.
   */
  fresh(key: string): V | undefined {
    const kept = this.lru.get(key);
    return kept && this.isFresh(kept) ? kept.value : undefined;
  }

  /** Loaded after every write markStale() reported, and within READ_CACHE_TTL_MS. */
  private isFresh(kept: Kept<V>): boolean {
    return (
      kept.generation === this.generation && this.clock.now() - kept.loadedAt <= READ_CACHE_TTL_MS
    );
  }

  /**
   * After a write on this node that readers may see one load late (a vote: many a second): every
   * kept answer is replaced by the next read, which is still served the old one, but `writer`'s
   * own reads wait for an answer loaded after the write.
   */
  markStale(writer: string): void {
    this.generation++;
    this.writers.set(writer, this.generation);
  }

  /** After this node's write that every reader must see at once: every later read loads afresh. */
  clear(): void {
    this.lru.clear();
  }

  /** After this node's write that changes one key's answer only. */
  delete(key: string): void {
    this.lru.delete(key);
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
