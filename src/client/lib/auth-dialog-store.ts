import { createStore, useStore } from './store.ts';

export type AuthMode = 'login' | 'register';

interface AuthDialogState {
  open: boolean;
  mode: AuthMode;
  /** True once it has been opened: its code loads on first use, then it stays mounted. */
  everOpened: boolean;
}

const dialog = createStore<AuthDialogState>({ open: false, mode: 'login', everOpened: false });

/** Any feature may ask for the sign-in dialog (e.g. the gallery's "Login to Upload"). */
export function openAuthDialog(mode: AuthMode): void {
  dialog.set({ open: true, mode, everOpened: true });
}

export function setAuthDialogMode(mode: AuthMode): void {
  dialog.set({ ...dialog.get(), mode });
}

export function closeAuthDialog(): void {
  dialog.set({ ...dialog.get(), open: false });
}

export function useAuthDialog(): AuthDialogState {
  return useStore(dialog);
}
