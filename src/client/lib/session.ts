import { authPaths } from '#shared/api/paths.ts';
import type { MeResponse, User } from '#shared/api/auth.ts';
import type { AppealDecisionNotice } from '#shared/api/appeals.ts';
import { setAppealNotice } from './appeal-store.ts';
import { readJson } from './api-client.ts';
import { useSyncExternalStore } from 'react';
import { createStore } from './store.ts';

export interface Session {
  user: User | null;
  isAuthenticated: boolean;
  isLoading: boolean;
}

// Who is signed in, in a store of its own rather than the query cache: the header needs it on
// every first load, and the query client (a tenth of that load) comes with the parts that need it.
const CHECKING: Session = { user: null, isAuthenticated: false, isLoading: true };
const session = createStore<Session>(CHECKING);
let firstCheckStarted = false;
/** Bumped by every check and every change: an answer to an older check is dropped. */
let generation = 0;
const userChangeListeners = new Set<(before: User | null) => void>();

// The session check runs on every first load, so it reads the answer without zod.
function userFrom(raw: MeResponse | null | undefined): User | null {
  const user = raw?.user;
  return user && typeof user.id === 'number' && typeof user.username === 'string'
    ? { id: user.id, username: user.username }
    : null;
}

function setSession(user: User | null) {
  const before = session.get().user;
  const same = user?.id === before?.id && user?.username === before?.username;
  if (same && !session.get().isLoading) return;
  session.set({ user, isAuthenticated: user !== null, isLoading: false });
  if (!same) for (const listener of userChangeListeners) listener(before);
}

/** A decision on the member's appeal not yet shown to them (decision 022), checked by hand too. */
function noticeFrom(raw: MeResponse | null | undefined): AppealDecisionNotice | null {
  const notice = raw?.appealDecision;
  return notice &&
    typeof notice.id === 'number' &&
    (notice.decision === 'upheld' || notice.decision === 'lifted') &&
    typeof notice.note === 'string' &&
    typeof notice.decidedAt === 'number'
    ? notice
    : null;
}

/**
 * Asks the server who is signed in (on first use, and when an answer says the session may have
 * ended). A failed check keeps what was known; the first one failing reads as signed out.
 */
export async function recheckSession(): Promise<void> {
  const asked = ++generation;
  let user: User | null;
  let notice: AppealDecisionNotice | null = null;
  try {
    const raw = (await readJson(authPaths.me, 'returnNull')) as MeResponse | null;
    user = userFrom(raw);
    notice = noticeFrom(raw);
  } catch {
    user = session.get().user;
  }
  if (asked !== generation) return;
  setSession(user);
  if (user) setAppealNotice(notice);
}

/**
 * Calls `listener` whenever who is signed in changes (login, logout, or a check that finds the
 * session gone), with who was signed in before.
 */
export function onUserChange(listener: (before: User | null) => void): () => void {
  userChangeListeners.add(listener);
  return () => userChangeListeners.delete(listener);
}

// Subscribing (after mount, never on the server) starts the first check.
function subscribe(listener: () => void) {
  if (!firstCheckStarted) {
    firstCheckStarted = true;
    void recheckSession();
  }
  return session.subscribe(listener);
}

/**
 * The visitor's session. The server's HTML and the hydrating render show it still loading (a
 * visitor's face); the check starts when the first part that shows it comes alive.
 */
export function useSession(): Session {
  return useSyncExternalStore(subscribe, session.get, () => CHECKING);
}

/** After login (the answer's user), register, or logout (null). */
export function setSessionUser(user: User | null): void {
  ++generation;
  setSession(user);
}
