import { createStore, useStore } from './store.ts';

const TOAST_LIMIT = 1;
export const TOAST_REMOVE_DELAY_MS = 5000;

/** A button on a toast (the appeal of a suspension's refusal). */
export interface ToastAction {
  label: string;
  onSelect: () => void;
}

export interface ToastInput {
  title?: string;
  description?: string;
  variant?: 'default' | 'destructive';
  action?: ToastAction | undefined;
}

export interface ToastItem extends ToastInput {
  id: string;
  open: boolean;
}

const toasts = createStore<ToastItem[]>([]);
let nextId = 0;
const removalTimers = new Map<string, ReturnType<typeof setTimeout>>();

/** Closes a toast; it leaves the list 5 s later so its exit can play. */
export function dismissToast(id: string): void {
  toasts.set(toasts.get().map((t) => (t.id === id ? { ...t, open: false } : t)));
  if (removalTimers.has(id)) return;
  removalTimers.set(
    id,
    setTimeout(() => {
      removalTimers.delete(id);
      toasts.set(toasts.get().filter((t) => t.id !== id));
    }, TOAST_REMOVE_DELAY_MS),
  );
}

/** Shows a toast; only one is shown at a time, a new one replaces the older. */
export function toast(input: ToastInput): { id: string; dismiss: () => void } {
  const id = String(++nextId);
  toasts.set([{ ...input, id, open: true }, ...toasts.get()].slice(0, TOAST_LIMIT));
  return { id, dismiss: () => dismissToast(id) };
}

export function getToasts(): ToastItem[] {
  return toasts.get();
}

export function useToasts(): ToastItem[] {
  return useStore(toasts);
}
