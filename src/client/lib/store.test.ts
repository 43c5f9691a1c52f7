import { describe, expect, it } from 'vitest';
import { createStore } from './store.ts';

describe('createStore', () => {
  it('tells each listener of a new value, and nobody of the same one', () => {
    const store = createStore({ n: 1 });
    const seen: number[] = [];
    store.subscribe(() => seen.push(store.get().n));
    const same = store.get();
    store.set(same);
    expect(seen).toEqual([]);
    store.set({ n: 2 });
    expect(seen).toEqual([2]);
  });

  it('stops telling a listener that unsubscribed; notify tells without a new value', () => {
    const store = createStore(0);
    let a = 0;
    let b = 0;
    const stopA = store.subscribe(() => (a += 1));
    store.subscribe(() => (b += 1));
    store.notify();
    stopA();
    store.set(1);
    expect([a, b]).toEqual([1, 2]);
  });
});
