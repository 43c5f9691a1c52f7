import { useSyncExternalStore } from 'react';

/**
 * One value that parts of the page read and are told about when it changes: the one way the
 * client keeps state outside React and the query cache (session, toasts, the sign-in dialog,
 * the game's HUD, the replay address). `set` with the same value tells nobody.
 */
export interface Store<T> {
  get(): T;
  set(next: T): void;
  subscribe(listener: () => void): () => void;
  /** Tells the listeners without a new value: for a value read from outside (the address bar). */
  notify(): void;
}

export function createStore<T>(initial: T): Store<T> {
  let value = initial;
  const listeners = new Set<() => void>();
  const notify = () => {
    for (const listener of listeners) listener();
  };
  return {
    get: () => value,
    set(next) {
      if (Object.is(next, value)) return;
      value = next;
      notify();
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    notify,
  };
}

/** The store's value in a component; `serverValue` is what the server's render shows. */
export function useStore<T>(store: Store<T>, serverValue: T = store.get()): T {
  return useSyncExternalStore(store.subscribe, store.get, () => serverValue);
}
