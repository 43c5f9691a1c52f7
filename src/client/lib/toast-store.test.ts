import { afterEach, describe, expect, it, vi } from 'vitest';
import { dismissToast, getToasts, toast, TOAST_REMOVE_DELAY_MS } from './toast-store.ts';

afterEach(() => vi.useRealTimers());

describe('toast store', () => {
  it('shows one toast at a time, the newest replacing the older', () => {
    toast({ title: 'first' });
    toast({ title: 'second', variant: 'destructive' });
    const shown = getToasts();
    expect(shown).toHaveLength(1);
    expect(shown[0]).toMatchObject({ title: 'second', variant: 'destructive', open: true });
  });

  it('closes on dismiss and removes the toast 5000 ms later', () => {
    vi.useFakeTimers();
    const { id } = toast({ title: 'bye' });
    dismissToast(id);
    expect(getToasts()[0]).toMatchObject({ id, open: false });
    vi.advanceTimersByTime(TOAST_REMOVE_DELAY_MS - 1);
    expect(getToasts()).toHaveLength(1);
    vi.advanceTimersByTime(1);
    expect(getToasts()).toHaveLength(0);
  });
});
