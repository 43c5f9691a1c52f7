import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { User } from '#shared/api/auth.ts';
import type * as SessionModule from './session.ts';
import { authPaths } from '#shared/api/paths.ts';

const alice: User = { id: 1, username: 'alice' };
let session: typeof SessionModule;
/** Who was signed in before each change, in order. */
let changes: Array<User | null>;

beforeEach(async () => {
  vi.resetModules();
  session = await import('./session.ts');
  changes = [];
  session.onUserChange((before) => changes.push(before));
});
afterEach(() => vi.unstubAllGlobals());

/** The session check answers with these, in order. */
function meAnswers(...answers: Array<() => Promise<Response>>) {
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string) => {
      expect(url).toBe(authPaths.me);
      return answers.shift()!();
    }),
  );
}
const signedIn = () => Promise.resolve(Response.json({ user: alice }));
const noSession = () => Promise.resolve(new Response('{}', { status: 401 }));
const serverDown = () => Promise.resolve(new Response('{}', { status: 500 }));

describe('the session store', () => {
  it('drops the answer to a check that was asked before the member logged out', async () => {
    let answer!: (res: Response) => void;
    meAnswers(() => new Promise((resolve) => (answer = resolve)));
    session.setSessionUser(alice);
    const check = session.recheckSession();
    session.setSessionUser(null);
    answer(Response.json({ user: alice }));
    await check;
    expect(changes).toEqual([null, alice]);
  });

  it('keeps the member through a failed check and signs them out, once, when the session is gone', async () => {
    meAnswers(signedIn, serverDown, noSession, noSession);
    await session.recheckSession();
    await session.recheckSession();
    expect(changes).toEqual([null]);
    await session.recheckSession();
    await session.recheckSession();
    expect(changes).toEqual([null, alice]);
  });
});
