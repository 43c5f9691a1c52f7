/**
 * One node's copy of answers every visitor shares and that may be a moment old (see
 * docs/decisions/005-leaderboard-cache.md). Rules:
 * - An entry is fresh for `ttlMs`. After that the stale copy is still served while one refresh
 *   runs (single flight), so a busy node runs the query at most about once per `ttlMs` per key
 *   and no request waits for it except the very first.
 * - A failed refresh drops the stale copy, so a failing database shows as errors, not as an
 *   ever older answer.
 * - `invalidate()` and `clear()` are for this node's own writes: nothing they drop is served
 *   after them, not even from a load that started before them. Other nodes' writes show within
 *   `ttlMs` plus one refresh.
 */
export class SharedReadCache<T> {
  private readonly entries = new Map<string, Entry<T>>();

  constructor(
    private readonly ttlMs: number,
    private readonly now: () => number,
    private readonly maxEntries = 200,
  ) {}

  get(key: string, load: () => Promise<T>): Promise<T> | T {
    const entry = this.entries.get(key);
    if (entry?.value !== undefined && entry.expiresAt > this.now()) return entry.value.v;
    const refreshing = entry?.refreshing ?? this.refresh(key, entry, load);
    return entry?.value ? entry.value.v : refreshing;
  }

  /**
   * Drops the entries a write may have changed: those `affected` says so of, and first loads
   * still running (nothing to judge yet). An entry being refreshed is judged by the copy it
   * holds, which must therefore speak for the newer one being loaded too: right when a write
   * that leaves an older answer alone cannot change a newer one (a leaderboard's lists only
   * gain entries, so their cut-off only rises). Dropping every refresh instead would, under a
   * steady stream of writes, make each reader wait for a query.
   */
  invalidate(affected: (value: T, key: string) => boolean): void {
    for (const [key, entry] of this.entries) {
      if (entry.value ? affected(entry.value.v, key) : entry.refreshing) this.entries.delete(key);
    }
  }

  clear(): void {
    this.entries.clear();
  }

  get size(): number {
    return this.entries.size;
  }

  /** The values held now (fresh or stale), for patching in place. */
  *values(): IterableIterator<T> {
    for (const entry of this.entries.values()) if (entry.value) yield entry.value.v;
  }

  private refresh(key: string, existing: Entry<T> | undefined, load: () => Promise<T>): Promise<T> {
    const entry: Entry<T> = existing ?? { value: undefined, expiresAt: 0, refreshing: undefined };
    if (!existing) {
      // Maps keep insertion order: the first key is the oldest entry.
      if (this.entries.size >= this.maxEntries)
        this.entries.delete(this.entries.keys().next().value!);
      this.entries.set(key, entry);
    }
    // An entry dropped while loading is no longer in the map: what its load brings is kept
    // only by the callers that were waiting for it.
    const refreshing = load().then(
      (v) => {
        entry.refreshing = undefined;
        entry.value = { v };
        entry.expiresAt = this.now() + this.ttlMs;
        return v;
      },
      (error: unknown) => {
        entry.refreshing = undefined;
        entry.value = undefined;
        throw error;
      },
    );
    entry.refreshing = refreshing;
    // A background refresh (the stale copy was served) has nobody waiting for its failure.
    refreshing.catch(() => {});
    return refreshing;
  }
}

interface Entry<T> {
  /** Boxed, so any T (even undefined) can be cached. */
  value: { v: T } | undefined;
  expiresAt: number;
  refreshing: Promise<T> | undefined;
}
