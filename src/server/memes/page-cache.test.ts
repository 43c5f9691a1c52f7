import { describe, expect, it } from 'vitest';
import type { Meme } from '#shared/api/memes.ts';
import { MemePageCache, type CachedPage } from './page-cache.ts';

const meme = (id: number): Meme => ({
  id,
  title: `m${id}`,
  category: 'success',
  imageUrl: `/objects/memes/${id}.jpg`,
  thumbnailUrl: `/objects/memes/${id}-thumb.webp`,
  thumbnailWidth: 4,
  thumbnailHeight: 3,
  upvotes: 0,
  downvotes: 0,
  createdAt: new Date(0).toISOString(),
  myVote: null,
});
const page = (...ids: number[]): CachedPage => ({
  memes: ids.map(meme),
  nextCursor: null,
  json: Buffer.from('[]'),
});

function setup(maxEntries?: number) {
  let now = 0;
  const cache = new MemePageCache(() => now, 1000, maxEntries);
  const loads: string[] = [];
  /** A load of `key` that brings `result` once `finish` is called (or at once). */
  const loader = (key: string, result: CachedPage) => {
    let finish!: () => void;
    const done = new Promise<void>((resolve) => (finish = resolve));
    return {
      load: async () => {
        loads.push(key);
        await done;
        return result;
      },
      finish,
    };
  };
  const ready = (key: string, result: CachedPage) => {
    const l = loader(key, result);
    l.finish();
    return l.load;
  };
  return { cache, loads, loader, ready, advance: (ms: number) => (now += ms) };
}

describe('MemePageCache', () => {
  it('loads a page once for everybody, serves it from memory, and the stale copy while one reload runs', async () => {
    const { cache, loads, loader, ready, advance } = setup();
    const p1 = page(1);
    const first = loader('a', p1);
    const waiting = [cache.page('a', 1, first.load), cache.page('a', 1, first.load)];
    first.finish();
    expect(await Promise.all(waiting)).toEqual([p1, p1]);
    expect(loads).toEqual(['a']);
    advance(999);
    expect(cache.page('a', 1, ready('a', page(9)))).toBe(p1);
    advance(1);
    // Expired: still served at once, while a single reload brings the new counts.
    const p2 = page(2);
    const reload = loader('a', p2);
    expect(cache.page('a', 1, reload.load)).toBe(p1);
    expect(cache.page('a', 1, reload.load)).toBe(p1);
    expect(loads).toEqual(['a', 'a']);
    reload.finish();
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(cache.page('a', 1, ready('a', page(9)))).toBe(p2);
  });

  it('forgets everything when the gallery version moves, and never keeps a page loaded under an older one', async () => {
    const { cache, ready, loader } = setup();
    await cache.page('a', 1, ready('a', page(1)));
    await cache.page('b', 1, ready('b', page(2)));
    const slow = loader('c', page(3));
    const underOne = cache.page('c', 1, slow.load);
    const p4 = page(4);
    expect(await cache.page('a', 2, ready('a', p4))).toBe(p4);
    expect(cache.size).toBe(1);
    // The load begun under version 1 still answers its own callers, but is not kept.
    slow.finish();
    expect(await underOne).toEqual(page(3));
    const p5 = page(5);
    expect(await cache.page('c', 2, ready('c', p5))).toBe(p5);
  });

  it('patches counts of a voted meme in every page and drops their serialised form', async () => {
    const { cache, ready } = setup();
    const all = page(3, 2, 1);
    const other = page(5, 4);
    await cache.page('all', 1, ready('all', all));
    await cache.page('other', 1, ready('other', other));
    cache.applyCounts(2, 7, 1);
    const served = await cache.page('all', 1, ready('all', page(9)));
    expect(served.memes[1]).toMatchObject({ id: 2, upvotes: 7, downvotes: 1 });
    expect(all.json).toBeNull();
    expect(other.json).toEqual(Buffer.from('[]'));
  });

  it('keeps at most maxEntries, dropping the oldest', async () => {
    const { cache, loads, ready } = setup(2);
    for (const key of ['a', 'b', 'c']) await cache.page(key, 1, ready(key, page(1)));
    await cache.page('b', 1, ready('b', page(1)));
    await cache.page('c', 1, ready('c', page(1)));
    expect(loads).toEqual(['a', 'b', 'c']);
    await cache.page('a', 1, ready('a', page(1)));
    expect(loads).toEqual(['a', 'b', 'c', 'a']);
  });
});

describe('MemePageCache.readVersion', () => {
  it('shares one read among the requests that ask while it is under way', async () => {
    const cache = new MemePageCache(() => 0);
    let reads = 0;
    let finish!: (version: number) => void;
    const read = () => {
      reads++;
      return new Promise<number>((resolve) => (finish = resolve));
    };
    const first = cache.readVersion(read);
    const second = cache.readVersion(read);
    expect(reads).toBe(1);
    finish(7);
    expect(await Promise.all([first, second])).toEqual([7, 7]);
    // Done: the next request reads again.
    const third = cache.readVersion(read);
    expect(reads).toBe(2);
    finish(8);
    expect(await third).toBe(8);
  });

  it("starts a fresh read after this node's own write", async () => {
    const cache = new MemePageCache(() => 0);
    const finishes: ((version: number) => void)[] = [];
    const read = () => new Promise<number>((resolve) => finishes.push(resolve));
    const before = cache.readVersion(read);
    cache.forgetVersionRead();
    const after = cache.readVersion(read);
    expect(finishes).toHaveLength(2);
    finishes[0]!(1);
    expect(await before).toBe(1);
    // The older read finishing must not clear the newer one, still under way.
    expect(cache.readVersion(read)).toBe(after);
    finishes[1]!(2);
    expect(await after).toBe(2);
  });

  it('lets a failed read fail its callers and not the next request', async () => {
    const cache = new MemePageCache(() => 0);
    await expect(cache.readVersion(() => Promise.reject(new Error('down')))).rejects.toThrow(
      'down',
    );
    expect(await cache.readVersion(() => Promise.resolve(3))).toBe(3);
  });
});
