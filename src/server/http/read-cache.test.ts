// The one read-cache rule (docs/decisions/011-one-read-cache-rule.md) on its own: who waits for
// a load and who is served the kept answer, on a clock the test moves.
import { describe, expect, it } from 'vitest';
import { READ_CACHE_LONGEST_MS, READ_CACHE_TTL_MS, ReadCache } from './read-cache.ts';

interface Answer {
  text: string;
}

/** A load the test answers when it chooses, and how many times it was started. */
function pendingLoad() {
  let answer!: (text: string) => void;
  let fail!: (error: Error) => void;
  const load = Object.assign(
    () => {
      load.started++;
      return new Promise<Answer>((resolve, reject) => {
        answer = (text) => resolve({ text });
        fail = reject;
      });
    },
    { started: 0 },
  );
  return { load, answer: (text: string) => answer(text), fail: (e: Error) => fail(e) };
}

const loaded = (text: string) => async () => ({ text });

/** Whether `promise` has settled once everything already queued has run. */
async function settled(promise: Promise<unknown>): Promise<boolean> {
  const marker = Symbol('pending');
  const first = await Promise.race([
    promise.then(
      () => true,
      () => true,
    ),
    new Promise((resolve) => setTimeout(() => resolve(marker), 20)),
  ]);
  return first !== marker;
}

function setUp() {
  let now = 1_000_000;
  const cache = new ReadCache<Answer>({ clock: { now: () => now } });
  return { cache, advance: (ms: number) => (now += ms) };
}

describe('ReadCache', () => {
  it('serves the kept answer while one load replaces it after a write, to all but the writer', async () => {
    const { cache } = setUp();
    expect(await cache.get('k', loaded('before'))).toEqual({ text: 'before' });
    cache.markStale('voter');

    const refresh = pendingLoad();
    expect(await cache.get('k', refresh.load)).toEqual({ text: 'before' });
    // A second reader during the load neither waits nor starts another.
    const other = pendingLoad();
    expect(await cache.get('k', other.load)).toEqual({ text: 'before' });
    expect([refresh.load.started, other.load.started]).toEqual([1, 0]);
    // The writer waits for the load begun after their write.
    const writer = cache.get('k', other.load, 'voter');
    expect(await settled(writer)).toBe(false);
    refresh.answer('after');
    expect(await writer).toEqual({ text: 'after' });
    expect(await cache.get('k', other.load)).toEqual({ text: 'after' });
    expect(other.load.started).toBe(0);
  });

  it('serves an answer past its lifetime once while reloading, and none twice that old', async () => {
    const { cache, advance } = setUp();
    await cache.get('k', loaded('first'));
    advance(READ_CACHE_TTL_MS + 1);
    const refresh = pendingLoad();
    expect(await cache.get('k', refresh.load)).toEqual({ text: 'first' });
    refresh.answer('second');
    await expect.poll(() => cache.get('k', loaded('unused'))).toEqual({ text: 'second' });

    advance(READ_CACHE_LONGEST_MS + 1);
    const late = pendingLoad();
    const reader = cache.get('k', late.load);
    expect(await settled(reader)).toBe(false);
    late.answer('third');
    expect(await reader).toEqual({ text: 'third' });
  });

  it('finds an answer without waiting only while it is fresh', async () => {
    const { cache, advance } = setUp();
    await cache.get('k', loaded('first'));
    expect(cache.fresh('k')).toEqual({ text: 'first' });
    advance(READ_CACHE_TTL_MS + 1);
    expect(cache.fresh('k')).toBeUndefined();
    await cache.get('k', loaded('second'));
    await expect.poll(() => cache.fresh('k')).toEqual({ text: 'second' });
    cache.markStale('voter');
    expect(cache.fresh('k')).toBeUndefined();
  });

  it('drops the kept answer when its replacement fails, so the next reader sees the failure', async () => {
    const { cache } = setUp();
    await cache.get('k', loaded('first'));
    cache.markStale('voter');
    const refresh = pendingLoad();
    expect(await cache.get('k', refresh.load)).toEqual({ text: 'first' });
    refresh.fail(new Error('database down'));
    await expect
      .poll(() =>
        cache
          .get('k', () => Promise.reject(new Error('still down')))
          .catch((e: Error) => e.message),
      )
      .toBe('still down');
  });

  it('serves nothing loaded before clear(), to anyone', async () => {
    const { cache } = setUp();
    await cache.get('k', loaded('before'));
    cache.clear();
    expect(await cache.get('k', loaded('after'))).toEqual({ text: 'after' });
  });
});
