import { authPaths } from '#shared/api/paths.ts';
import type { MeResponse, User } from '#shared/api/auth.ts';
import type { AppealDecisionNotice } from '#shared/api/appeals.ts';
import { setAppealNotice } from './appeal-store.ts';
import { readJson } from './api-client.ts';
import { useSyncExternalStore } from 'react';
import { createStore } from './store.ts';

/** A moderator's or an admin's role, as the session check says it (for links, not access). */
export type OperatorRole = NonNullable<MeResponse['operator']>;

export interface Session {
  user: User | null;
  isAuthenticated: boolean;
  isLoading: boolean;
  /** Set for a moderator or an admin: the account menu links them to the console. */
  operator: OperatorRole | null;
}

// Who is signed in, in a store of its own rather than the query cache: the header needs it on
// every first load, and the query client (a tenth of that load) comes with the parts that need it.
const CHECKING: Session = { user: null, isAuthenticated: false, isLoading: true, operator: null };
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

function setSession(user: User | null, operator: OperatorRole | null) {
  const { user: before, isLoading, operator: operatorBefore } = session.get();
  const same = user?.id === before?.id && user?.username === before?.username;
  if (same && !isLoading && operator === operatorBefore) return;
  session.set({ user, isAuthenticated: user !== null, isLoading: false, operator });
  if (!same) for (const listener of userChangeListeners) listener(before);
}

function operatorFrom(raw: MeResponse | null | undefined): OperatorRole | null {
  return raw?.operator === 'moderator' || raw?.operator === 'admin' ? raw.operator : null;
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
  let operator: OperatorRole | null;
  let notice: AppealDecisionNotice | null = null;
  try {
    const raw = (await readJson(authPaths.me, 'returnNull')) as MeResponse | null;
    user = userFrom(raw);
    operator = user ? operatorFrom(raw) : null;
    notice = noticeFrom(raw);
  } catch {
    ({ user, operator } = session.get());
  }
  if (asked !== generation) return;
  setSession(user, operator);
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

/**
 * After login (the answer's user), register, or logout (null). The operator role is the session
 * check's to say: a login is followed by one (auth-mutations.ts).
 */
export function setSessionUser(user: User | null): void {
  ++generation;
  setSession(user, null);
}
