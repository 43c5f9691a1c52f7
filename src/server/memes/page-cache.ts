import type { Meme } from '#shared/api/memes.ts';
import { SharedReadCache } from '../ops/shared-read-cache.ts';

export interface CachedPage {
  /** Every meme with `myVote: null`; the caller's own votes are laid over per request. */
  memes: Meme[];
  nextCursor: string | null;
  /**
   * The serialised page for callers without votes, made on first use: UTF-8 bytes, so the
   * busiest answer is not encoded again for every visitor.
   */
  json: Buffer | null;
}

/**
 * Recent gallery pages, so a busy first page costs one key lookup instead of a query and a
 * serialisation per visitor. Two rules keep it honest:
 * - Which memes a page shows changes only with the gallery version (bumped in the same
 *   transaction as a new meme, hide, unhide or delete, by any node or the operator's CLI);
 *   a different version empties the cache, so those changes show at once everywhere.
 * - Counts change with votes; this node's votes patch the cached pages at once, other nodes'
 *   show within `ttlMs` plus one refresh: an expired page is still served while one reload
 *   runs (SharedReadCache), so no reader waits for the page query behind a busy pool of writes.
 */
export class MemePageCache {
  private version: number | null = null;
  private readonly pages: SharedReadCache<CachedPage>;
  private versionRead: Promise<number> | undefined;

  constructor(now: () => number, ttlMs = 1000, maxEntries = 500) {
    this.pages = new SharedReadCache<CachedPage>(ttlMs, now, maxEntries);
  }

  /** The page under `key` as of gallery `version`: from memory, or one `load` for all who ask. */
  page(
    key: string,
    version: number,
    load: () => Promise<CachedPage>,
  ): Promise<CachedPage> | CachedPage {
    if (version !== this.version) {
      // Nothing cached or being loaded before this is served after it (SharedReadCache.clear).
      this.pages.clear();
      this.version = version;
    }
    return this.pages.get(key, load);
  }

  /**
   * The gallery version, read once for all the requests that ask while a read is under way:
   * on PostgreSQL each read is a round trip, which was most of a cached page's cost. A read
   * shared this way started at most one round trip before the request came in; this node's own
   * gallery writes call `forgetVersionRead()`, so a request after them starts a read of its own.
   */
  readVersion(read: () => Promise<number>): Promise<number> {
    if (this.versionRead) return this.versionRead;
    const pending = read().finally(() => {
      if (this.versionRead === pending) this.versionRead = undefined;
    });
    this.versionRead = pending;
    return pending;
  }

  forgetVersionRead(): void {
    this.versionRead = undefined;
  }

  /** A vote on this node: every cached page showing the meme gets its new counts. */
  applyCounts(memeId: number, upvotes: number, downvotes: number): void {
    for (const page of this.pages.values()) {
      const index = page.memes.findIndex((m) => m.id === memeId);
      if (index === -1) continue;
      page.memes[index] = { ...page.memes[index]!, upvotes, downvotes };
      page.json = null;
    }
  }

  get size(): number {
    return this.pages.size;
  }
}
