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

describe('MemePageCache', () => {
  it('serves an entry until it expires', () => {
    const cache = new MemePageCache(1000);
    expect(cache.get('a', 1, 0)).toBeUndefined();
    const p = page(1);
    cache.set('a', 1, p, 0);
    expect(cache.get('a', 1, 999)).toBe(p);
    expect(cache.get('a', 1, 1000)).toBeUndefined();
  });

  it('forgets everything when the gallery version moves, and never stores an old version', () => {
    const cache = new MemePageCache(1000);
    cache.get('a', 1, 0);
    cache.set('a', 1, page(1), 0);
    cache.set('b', 1, page(2), 0);
    expect(cache.get('a', 2, 1)).toBeUndefined();
    expect(cache.get('b', 2, 1)).toBeUndefined();
    expect(cache.size).toBe(0);
    // A page read under version 1 that finishes after version 2 was seen must not be kept.
    cache.set('a', 1, page(1), 2);
    expect(cache.get('a', 2, 3)).toBeUndefined();
  });

  it('patches counts of a voted meme in every page and drops their serialised form', () => {
    const cache = new MemePageCache(1000);
    cache.get('x', 1, 0);
    const all = page(3, 2, 1);
    const other = page(5, 4);
    cache.set('all', 1, all, 0);
    cache.set('other', 1, other, 0);
    cache.applyCounts(2, 7, 1);
    expect(cache.get('all', 1, 1)!.memes[1]).toMatchObject({ id: 2, upvotes: 7, downvotes: 1 });
    expect(all.json).toBeNull();
    expect(other.json).toEqual(Buffer.from('[]'));
  });

  it('keeps at most maxEntries, dropping the oldest', () => {
    const cache = new MemePageCache(1000, 2);
    cache.get('x', 1, 0);
    cache.set('a', 1, page(1), 0);
    cache.set('b', 1, page(2), 0);
    cache.set('c', 1, page(3), 0);
    expect(cache.get('a', 1, 1)).toBeUndefined();
    expect(cache.get('b', 1, 1)).toBeDefined();
    expect(cache.get('c', 1, 1)).toBeDefined();
  });
});

describe('MemePageCache.readVersion', () => {
  it('shares one read among the requests that ask while it is under way', async () => {
    const cache = new MemePageCache();
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
    const cache = new MemePageCache();
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
    const cache = new MemePageCache();
    await expect(cache.readVersion(() => Promise.reject(new Error('down')))).rejects.toThrow('down');
    expect(await cache.readVersion(() => Promise.resolve(3))).toBe(3);
  });
});
