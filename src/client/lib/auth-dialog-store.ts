import { useSyncExternalStore } from 'react';

export type AuthMode = 'login' | 'register';

interface AuthDialogState {
  open: boolean;
  mode: AuthMode;
  /** True once it has been opened: its code loads on first use, then it stays mounted. */
  everOpened: boolean;
}

let state: AuthDialogState = { open: false, mode: 'login', everOpened: false };
const listeners = new Set<() => void>();

function set(next: AuthDialogState) {
  state = next;
  for (const listener of listeners) listener();
}

/** Any feature may ask for the sign-in dialog (e.g. the gallery's "Login to Upload"). */
export function openAuthDialog(mode: AuthMode): void {
  set({ open: true, mode, everOpened: true });
}

export function setAuthDialogMode(mode: AuthMode): void {
  set({ ...state, mode });
}

export function closeAuthDialog(): void {
  set({ ...state, open: false });
}

export function useAuthDialog(): AuthDialogState {
  return useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    () => state,
    () => state,
  );
}
