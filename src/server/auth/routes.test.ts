import { READ_CACHE_LONGEST_MS } from '#server/http/read-cache.ts';
import { describe, expect, it } from 'vitest';
import { createTestApp, suiteApp, uniqueName } from '#test-support/test-app.ts';
import { TestClient } from '#test-support/test-client.ts';
import { operator } from '#test-support/operators.ts';
import { databaseKinds } from '#test-support/test-database.ts';
import { REGISTER_LIMIT_PER_IP } from './service.ts';
import { authPaths } from '#shared/api/paths.ts';

describe.each(databaseKinds)('accounts on %s', (kind) => {
  const t = suiteApp(kind);

  const client = () => TestClient.inject(t.app);

  it('registers, answers me, logs out and logs back in', async () => {
    const c = client();
    const name = uniqueName('Grinder');
    const res = await c.request('POST', authPaths.register, {
      body: { username: name, password: 'secret1' },
      csrf: false,
    });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toEqual({ user: { id: expect.any(Number), username: name } });

    expect((await c.request('GET', authPaths.me)).json()).toEqual({
      user: { id: expect.any(Number), username: name },
    });

    const out = await c.request('POST', authPaths.logout);
    expect(out.statusCode).toBe(200);
    expect((await c.request('GET', authPaths.me)).json()).toEqual({ user: null });

    const login = await c.login(name, 'secret1');
    expect(login.statusCode).toBe(200);
    expect(login.json()).toEqual({ user: { id: expect.any(Number), username: name } });
    expect((await c.request('GET', authPaths.me)).json().user.username).toBe(name);
  });

  it("names an operator's role in me (the account menu's console link), a member's not at all", async () => {
    for (const role of ['moderator', 'admin'] as const) {
      const { client: c, user } = await operator(t, role);
      expect((await c.request('GET', authPaths.me)).json()).toEqual({
        user: { id: user.id, username: user.username },
        operator: role,
      });
    }
    const { client: member } = await operator(t, 'member');
    expect((await member.request('GET', authPaths.me)).json()).not.toHaveProperty('operator');
  });

  it('keeps private answers out of every cache (no-store): the token, and me signed out or in', async () => {
    const c = client();
    const token = await c.request('GET', authPaths.csrfToken);
    const signedOut = await c.request('GET', authPaths.me);
    await c.request('POST', authPaths.register, {
      body: { username: uniqueName(), password: 'secret1' },
      csrf: false,
    });
    const signedIn = await c.request('GET', authPaths.me);
    expect(signedIn.json().user).not.toBeNull();
    for (const res of [token, signedOut, signedIn]) {
      expect(res.statusCode).toBe(200);
      expect(res.headers['cache-control']).toBe('no-store');
    }
  });

  it('sets an httpOnly, SameSite=Lax session cookie, Secure only behind https', async () => {
    const res = await client().request('POST', authPaths.register, {
      body: { username: uniqueName(), password: 'secret1' },
      csrf: false,
    });
    const sid = res.cookies.find((c) => c.name === 'sid')!;
    expect(sid.httpOnly).toBe(true);
    expect(sid.sameSite).toBe('Lax');
    expect(sid.secure).toBeFalsy();
    expect(sid.value.length).toBeGreaterThanOrEqual(43);

    const https = await createTestApp(kind, { publicOrigin: 'https://grind.example' });
    try {
      const secureRes = await TestClient.inject(https.app).request('POST', authPaths.register, {
        body: { username: uniqueName(), password: 'secret1' },
        csrf: false,
        headers: { origin: 'https://grind.example' },
      });
      expect(secureRes.statusCode).toBe(201);
      expect(secureRes.cookies.find((c) => c.name === '__Host-sid')!.secure).toBe(true);
    } finally {
      await https.close();
    }
  });

  it('stores only a hash of the session id', async () => {
    const c = client();
    await c.register(uniqueName());
    const sid = c.cookies.get('sid')!;
    const rows = await t.app.deps.db.selectFrom('sessions').select('id_hash').execute();
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.some((r) => r.id_hash === sid)).toBe(false);
  });

  it('rotates the session id on login and the old id stops working', async () => {
    const name = uniqueName();
    const c = client();
    await c.register(name);
    const first = c.cookies.get('sid')!;
    await c.login(name);
    const second = c.cookies.get('sid')!;
    expect(second).not.toBe(first);
    const stale = await t.app.inject({
      method: 'GET',
      url: authPaths.me,
      headers: { cookie: `sid=${first}` },
    });
    expect(stale.json()).toEqual({ user: null });
  });

  it('refuses a duplicate username ignoring case with 409', async () => {
    const name = uniqueName('CaseName');
    await client().register(name);
    const res = await client().request('POST', authPaths.register, {
      body: { username: name.toUpperCase(), password: 'secret1' },
      csrf: false,
    });
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toBe('Username is already taken');
  });

  it.each([
    [{ username: 'ab', password: 'secret1' }, 'Username must be at least 3 characters'],
    [{ username: '', password: 'secret1' }, 'Username is required'],
    [{ username: 'a'.repeat(33), password: 'secret1' }, 'Username must be at most 32 characters'],
    [
      { username: 'bad name!', password: 'secret1' },
      'Username may only contain letters, digits, _ and -',
    ],
    [{ username: 'gooduser', password: '12345' }, 'Password must be at least 6 characters'],
    [{ username: 'gooduser', password: '' }, 'Password is required'],
    [
      { username: 'gooduser', password: 'x'.repeat(129) },
      'Password must be at most 128 characters',
    ],
    [{ password: 'secret1' }, 'Username is required'],
  ])('rejects register body %j with a readable 400', async (body, message) => {
    const res = await client().request('POST', authPaths.register, { body, csrf: false });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ message, code: 'VALIDATION' });
  });

  it('answers unknown user and wrong password with the same 401', async () => {
    const name = uniqueName();
    await client().register(name, 'rightpass');
    const wrong = await client().login(name, 'wrongpass');
    const unknown = await client().login(uniqueName('ghost'), 'whatever');
    expect(wrong.statusCode).toBe(401);
    expect(unknown.statusCode).toBe(401);
    expect(wrong.json()).toEqual(unknown.json());
    expect(wrong.json().message).toBe('Invalid username or password');
  });

  it('throttles one address guessing one username with 429 and Retry-After, then lets it go after the window', async () => {
    const name = uniqueName();
    const guesser = () => TestClient.inject(t.app, '192.0.2.44');
    await client().register(name, 'rightpass');
    for (let i = 0; i < 10; i++)
      expect((await guesser().login(name, 'wrong')).statusCode).toBe(401);
    const blocked = await guesser().login(name, 'rightpass');
    expect(blocked.statusCode).toBe(429);
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);
    t.clock.advance(15 * 60 * 1000 + 1);
    expect((await guesser().login(name, 'rightpass')).statusCode).toBe(200);
  });

  it('does not lock the owner out when someone else guesses their password', async () => {
    const name = uniqueName('leader');
    await client().register(name, 'rightpass');
    for (let i = 0; i < 11; i++) await TestClient.inject(t.app, '192.0.2.45').login(name, 'wrong');
    expect((await TestClient.inject(t.app, '192.0.2.45').login(name, 'wrong')).statusCode).toBe(
      429,
    );
    const owner = await TestClient.inject(t.app, '198.51.100.45').login(name, 'rightpass');
    expect(owner.statusCode).toBe(200);
  });

  it('throttles login per IP across usernames', async () => {
    const ipHeaders = { 'x-forwarded-for': '203.0.113.9' };
    const app = await createTestApp(kind, { trustProxy: 1 });
    try {
      const c = TestClient.inject(app.app);
      let last = 0;
      for (let i = 0; i < 51; i++) {
        last = (
          await c.request('POST', authPaths.login, {
            body: { username: uniqueName('spray'), password: 'whatever' },
            csrf: false,
            headers: ipHeaders,
          })
        ).statusCode;
      }
      expect(last).toBe(429);
      const other = await c.request('POST', authPaths.login, {
        body: { username: uniqueName('spray'), password: 'whatever' },
        csrf: false,
        headers: { 'x-forwarded-for': '203.0.113.10' },
      });
      expect(other.statusCode).toBe(401);
    } finally {
      await app.close();
    }
  });

  it('limits the accounts one address opens per hour; a taken name does not count', async () => {
    const ip = '198.51.100.7';
    const register = (username: string, address = ip) =>
      TestClient.inject(t.app, address).request('POST', authPaths.register, {
        body: { username, password: 'password123' },
        csrf: false,
      });
    const taken = uniqueName('taken');
    expect((await register(taken, '198.51.100.8')).statusCode).toBe(201);
    for (let i = 0; i < 3; i++) expect((await register(taken)).statusCode).toBe(409);
    for (let i = 0; i < REGISTER_LIMIT_PER_IP; i++) {
      expect((await register(uniqueName('burst'))).statusCode).toBe(201);
    }
    const refused = uniqueName('refused');
    const blocked = await register(refused);
    expect(blocked.statusCode).toBe(429);
    expect(blocked.json().message).toBe(
      'Too many accounts created from your network. Please try again later.',
    );
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);
    const stored = t.app.deps.db.selectFrom('users').select('id').where('username', '=', refused);
    expect(await stored.executeTakeFirst()).toBeUndefined();
    expect((await register(uniqueName('neighbour'), '198.51.100.9')).statusCode).toBe(201);
    t.clock.advance(60 * 60 * 1000 + 1);
    expect((await register(refused)).statusCode).toBe(201);
  });

  it('ends a session at once on this node, and within 2 s when ended elsewhere', async () => {
    const c = client();
    await c.register(uniqueName());
    const me = async () => (await c.request('GET', authPaths.me)).json<{ user: unknown }>().user;
    expect(await me()).not.toBeNull();
    // Another node (or the operator) deletes the session row: this node's copy is fresh for a
    // second, then served while one look-up replaces it ...
    await t.app.deps.db.deleteFrom('sessions').execute();
    t.clock.advance(1000);
    expect(await me()).not.toBeNull();
    t.clock.advance(1);
    await expect.poll(me).toBeNull();
    // ... and never once it is 2 s old, even on a node nobody asked meanwhile.
    const e = client();
    await e.register(uniqueName());
    const eMe = async () => (await e.request('GET', authPaths.me)).json<{ user: unknown }>().user;
    expect(await eMe()).not.toBeNull();
    await t.app.deps.db.deleteFrom('sessions').execute();
    t.clock.advance(READ_CACHE_LONGEST_MS + 1);
    expect(await eMe()).toBeNull();

    const d = client();
    await d.register(uniqueName());
    expect((await d.request('GET', authPaths.me)).json<{ user: unknown }>().user).not.toBeNull();
    const cookie = d.cookies.get('sid')!;
    expect((await d.request('POST', authPaths.logout)).statusCode).toBe(200);
    const replay = client();
    replay.cookies.set('sid', cookie);
    expect((await replay.request('GET', authPaths.me)).json<{ user: unknown }>().user).toBeNull();
  });

  it('expires a session after the idle limit and after the absolute limit', async () => {
    const c = client();
    await c.register(uniqueName());
    t.clock.advance(13 * 24 * 60 * 60 * 1000);
    expect((await c.request('GET', authPaths.me)).json().user).not.toBeNull();
    t.clock.advance(13 * 24 * 60 * 60 * 1000);
    expect((await c.request('GET', authPaths.me)).json().user).not.toBeNull();
    t.clock.advance(5 * 24 * 60 * 60 * 1000);
    expect((await c.request('GET', authPaths.me)).json().user).toBeNull();

    const idle = client();
    await idle.register(uniqueName());
    t.clock.advance(14 * 24 * 60 * 60 * 1000 + 1000);
    expect((await idle.request('GET', authPaths.me)).json().user).toBeNull();
  });
});

describe.each(databaseKinds)('CSRF and origin checks on %s', (kind) => {
  const t = suiteApp(kind);

  it('issues a token to a visitor without writing to the database', async () => {
    const before = await t.app.deps.db
      .selectFrom('sessions')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    const res = await t.app.inject({ method: 'GET', url: authPaths.csrfToken });
    expect(res.statusCode).toBe(200);
    expect(res.json().csrfToken).toMatch(/^[\w-]{40,}$/);
    const after = await t.app.deps.db
      .selectFrom('sessions')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    expect(after.n).toBe(before.n);
  });

  it('refuses a mutating call without a token, or with a wrong one, with a body naming CSRF', async () => {
    const c = TestClient.inject(t.app);
    await c.register(uniqueName());
    const missing = await c.request('POST', authPaths.logout, { csrf: false });
    expect(missing.statusCode).toBe(403);
    expect(missing.body).toContain('CSRF');
    const wrong = await c.request('POST', authPaths.logout, {
      headers: { 'x-csrf-token': 'A'.repeat(43) },
    });
    expect(wrong.statusCode).toBe(403);
    expect(wrong.body).toContain('CSRF');
    expect((await c.request('GET', authPaths.me)).json().user).not.toBeNull();
    // A fresh token (what the client fetches on retry) then works.
    expect((await c.request('POST', authPaths.logout)).statusCode).toBe(200);
  });

  it('does not accept a token minted for another visitor', async () => {
    const a = TestClient.inject(t.app);
    const b = TestClient.inject(t.app);
    await b.register(uniqueName());
    const res = await b.request('POST', authPaths.logout, {
      headers: { 'x-csrf-token': await a.token() },
    });
    expect(res.statusCode).toBe(403);
  });

  it('exempts login and register from the token', async () => {
    const name = uniqueName();
    const reg = await TestClient.inject(t.app).request('POST', authPaths.register, {
      body: { username: name, password: 'secret1' },
      csrf: false,
    });
    expect(reg.statusCode).toBe(201);
    expect((await TestClient.inject(t.app).login(name, 'secret1')).statusCode).toBe(200);
  });

  it.each([
    [{ origin: 'https://evil.example' }],
    [{ 'sec-fetch-site': 'cross-site' }],
    [{ origin: 'null' }],
  ])('refuses a cross-site mutating call (%j), exempt routes included', async (headers) => {
    const name = uniqueName();
    const reg = await TestClient.inject(t.app).request('POST', authPaths.register, {
      body: { username: name, password: 'secret1' },
      csrf: false,
      headers,
    });
    expect(reg.statusCode).toBe(403);
    expect(reg.body).toContain('Forbidden');
    const rows = await t.app.deps.db
      .selectFrom('users')
      .select('id')
      .where('username', '=', name)
      .execute();
    expect(rows).toHaveLength(0);
  });

  it('accepts a same-origin browser call', async () => {
    const res = await TestClient.inject(t.app).request('POST', authPaths.register, {
      body: { username: uniqueName(), password: 'secret1' },
      csrf: false,
      headers: {
        origin: 'http://localhost:80',
        host: 'localhost:80',
        'sec-fetch-site': 'same-origin',
      },
    });
    expect(res.statusCode).toBe(201);
  });
});
