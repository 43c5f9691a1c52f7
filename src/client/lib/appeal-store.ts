import type { AppealDecisionNotice } from '#shared/api/appeals.ts';
import { ApiError } from './api-client.ts';
import { createStore, useStore } from './store.ts';
import type { ToastAction } from './toast-store.ts';

/**
 * A suspended member's appeal, across features (decision 022): any refusal toast of a suspended
 * write offers "Appeal" (`appealActionFor`), which opens the appeal form; the session check hands
 * over a decision on an appeal the member has not been shown (`setAppealNotice`). The app loads
 * the form's and the notice's code only when one of them is wanted.
 */
interface AppealState {
  open: boolean;
  /** The refusal the member is appealing: the server's words (reason and end time). */
  refusal: string;
  /** True once opened: its code loads on first use, then it stays mounted. */
  everOpened: boolean;
  notice: AppealDecisionNotice | null;
}

const appeal = createStore<AppealState>({
  open: false,
  refusal: '',
  everOpened: false,
  notice: null,
});

function openAppealDialog(refusal: string): void {
  appeal.set({ ...appeal.get(), open: true, refusal, everOpened: true });
}

export function closeAppealDialog(): void {
  appeal.set({ ...appeal.get(), open: false });
}

export function useAppeal(): AppealState {
  return useStore(appeal);
}

/** "Appeal" for a refusal toast, when the refusal is a suspension's; nothing otherwise. */
export function appealActionFor(error: unknown): ToastAction | undefined {
  if (!(error instanceof ApiError) || error.code !== 'SUSPENDED') return undefined;
  const refusal = error.serverMessage ?? '';
  return { label: 'Appeal', onSelect: () => openAppealDialog(refusal) };
}

/** Set by the session check: a decision to tell the member (once per id in this page). */
const told = new Set<number>();
export function setAppealNotice(notice: AppealDecisionNotice | null): void {
  if (notice === null || told.has(notice.id)) return;
  told.add(notice.id);
  appeal.set({ ...appeal.get(), notice });
}

export function clearAppealNotice(): void {
  appeal.set({ ...appeal.get(), notice: null });
}
