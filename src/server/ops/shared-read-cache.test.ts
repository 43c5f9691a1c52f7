import { describe, expect, it } from 'vitest';
import { SharedReadCache } from './shared-read-cache.ts';

function deferred<T>() {
  let resolve!: (v: T) => void;
  let reject!: (e: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

function setup(ttlMs = 1000) {
  let now = 0;
  const cache = new SharedReadCache<string>(ttlMs, () => now, 3);
  const loads: ReturnType<typeof deferred<string>>[] = [];
  const load = () => {
    const d = deferred<string>();
    loads.push(d);
    return d.promise;
  };
  return { cache, loads, load, advance: (ms: number) => (now += ms) };
}

describe('SharedReadCache', () => {
  it('runs one load for every first request, then answers from memory until the entry expires', async () => {
    const { cache, loads, load, advance } = setup();
    const first = [cache.get('k', load), cache.get('k', load), cache.get('k', load)];
    expect(loads).toHaveLength(1);
    loads[0]!.resolve('v1');
    expect(await Promise.all(first)).toEqual(['v1', 'v1', 'v1']);
    advance(999);
    expect(cache.get('k', load)).toBe('v1');
    expect(loads).toHaveLength(1);
  });

  it('serves the stale copy while exactly one refresh runs, then the new one', async () => {
    const { cache, loads, load, advance } = setup();
    const first = cache.get('k', load);
    loads[0]!.resolve('v1');
    await first;
    advance(1000);
    expect(cache.get('k', load)).toBe('v1');
    expect(cache.get('k', load)).toBe('v1');
    expect(loads).toHaveLength(2);
    loads[1]!.resolve('v2');
    await loads[1]!.promise;
    await Promise.resolve();
    expect(cache.get('k', load)).toBe('v2');
    expect(loads).toHaveLength(2);
  });

  it('after clear(), never serves what was cached or being loaded before it', async () => {
    const { cache, loads, load } = setup();
    const before = cache.get('k', load);
    cache.clear();
    const after = cache.get('k', load);
    expect(loads).toHaveLength(2);
    loads[0]!.resolve('before the write');
    expect(await before).toBe('before the write');
    loads[1]!.resolve('after the write');
    expect(await after).toBe('after the write');
    expect(cache.get('k', load)).toBe('after the write');
  });

  it('drops what a write affects and first loads still running, and keeps the rest', async () => {
    const { cache, loads, load } = setup();
    for (const key of ['a', 'b']) {
      const pending = cache.get(key, load);
      loads.at(-1)!.resolve(`${key}1`);
      await pending;
    }
    const loading = cache.get('c', load);
    cache.invalidate((value) => value === 'a1');
    expect(cache.get('b', load)).toBe('b1');
    expect(loads).toHaveLength(3);
    const a = cache.get('a', load);
    const c = cache.get('c', load);
    expect(loads).toHaveLength(5);
    loads[2]!.resolve('c from before the write');
    expect(await loading).toBe('c from before the write');
    loads[3]!.resolve('a2');
    loads[4]!.resolve('c2');
    expect([await a, await c]).toEqual(['a2', 'c2']);
    expect(cache.get('c', load)).toBe('c2');
  });

  it('judges an entry being refreshed by its stale copy', async () => {
    const { cache, loads, load, advance } = setup();
    for (const key of ['kept', 'dropped']) {
      const pending = cache.get(key, load);
      loads.at(-1)!.resolve(`${key}1`);
      await pending;
    }
    advance(1000);
    expect(cache.get('kept', load)).toBe('kept1');
    expect(cache.get('dropped', load)).toBe('dropped1');
    expect(loads).toHaveLength(4);
    cache.invalidate((value) => value === 'dropped1');
    // The refresh of the unaffected entry goes on and is kept; readers never wait for it.
    expect(cache.get('kept', load)).toBe('kept1');
    loads[2]!.resolve('kept2');
    await loads[2]!.promise;
    await Promise.resolve();
    expect(cache.get('kept', load)).toBe('kept2');
    // The affected one loads afresh, and the reader waits for the answer after the write.
    const fresh = cache.get('dropped', load);
    expect(loads).toHaveLength(5);
    loads[3]!.resolve('dropped2, from before the write');
    loads[4]!.resolve('dropped3');
    expect(await fresh).toBe('dropped3');
  });

  it('passes a failed load on to its callers and tries again on the next request', async () => {
    const { cache, loads, load } = setup();
    const failing = cache.get('k', load);
    loads[0]!.reject(new Error('database down'));
    await expect(failing).rejects.toThrow('database down');
    const retry = cache.get('k', load);
    expect(loads).toHaveLength(2);
    loads[1]!.resolve('v');
    expect(await retry).toBe('v');
  });

  it('drops the stale copy when its refresh fails', async () => {
    const { cache, loads, load, advance } = setup();
    const first = cache.get('k', load);
    loads[0]!.resolve('v1');
    await first;
    advance(1000);
    expect(cache.get('k', load)).toBe('v1');
    loads[1]!.reject(new Error('database down'));
    await loads[1]!.promise.catch(() => {});
    await Promise.resolve();
    const next = cache.get('k', load);
    expect(next).toBeInstanceOf(Promise);
    loads[2]!.reject(new Error('still down'));
    await expect(next).rejects.toThrow('still down');
  });

  it('keys entries apart and forgets the oldest beyond its size', async () => {
    const { cache, loads, load } = setup();
    for (const key of ['a', 'b', 'c', 'd']) {
      const pending = cache.get(key, load);
      loads.at(-1)!.resolve(key);
      await pending;
    }
    expect(cache.size).toBe(3);
    expect(cache.get('d', load)).toBe('d');
    expect(cache.get('b', load)).toBe('b');
    const reloaded = cache.get('a', load);
    expect(loads).toHaveLength(5);
    loads[4]!.resolve('a again');
    expect(await reloaded).toBe('a again');
  });
});
