import { describe, expect, it } from 'vitest';
import { createTestApp, suiteApp, uniqueName } from '#test-support/test-app.ts';
import { TestClient } from '#test-support/test-client.ts';
import { databaseKinds } from '#test-support/test-database.ts';
import { authPaths, memePaths, pathTo } from '#shared/api/paths.ts';

describe.each(databaseKinds)('CSRF tokens belong to a session, on %s', (kind) => {
  const t = suiteApp(kind);

  const me = async (c: TestClient) => (await c.request('GET', authPaths.me)).json().user;

  it('a token read before login is refused after it, and login renews the csrf cookie', async () => {
    const name = uniqueName();
    await TestClient.inject(t.app).register(name);
    const c = TestClient.inject(t.app);
    const before = await c.token();
    const cookieBefore = c.cookies.get('csrf');
    expect((await c.login(name)).statusCode).toBe(200);
    expect(c.cookies.get('csrf')).not.toBe(cookieBefore);
    const stale = await c.request('POST', authPaths.logout, {
      headers: { 'x-csrf-token': before },
    });
    expect(stale.statusCode).toBe(403);
    expect(await me(c)).not.toBeNull();
    expect((await c.request('POST', authPaths.logout)).statusCode).toBe(200);
  });

  it('a cookie and token planted before the victim logs in are no good afterwards', async () => {
    const attacker = TestClient.inject(t.app);
    const plantedToken = await attacker.token();
    const plantedCookie = attacker.cookies.get('csrf')!;
    const victim = TestClient.inject(t.app);
    victim.cookies.set('csrf', plantedCookie);
    await victim.register(uniqueName());
    // Even if the browser kept the planted cookie (renewal lost), the token is the visitor's.
    victim.cookies.set('csrf', plantedCookie);
    const res = await victim.request('POST', authPaths.logout, {
      headers: { 'x-csrf-token': plantedToken },
    });
    expect(res.statusCode).toBe(403);
    expect(await me(victim)).not.toBeNull();
  });

  it("one member's token does not work in another member's session, even with the same csrf cookie", async () => {
    const a = TestClient.inject(t.app);
    await a.register(uniqueName());
    const tokenA = await a.token();
    const b = TestClient.inject(t.app);
    await b.register(uniqueName());
    b.cookies.set('csrf', a.cookies.get('csrf')!);
    const res = await b.request('POST', authPaths.logout, { headers: { 'x-csrf-token': tokenA } });
    expect(res.statusCode).toBe(403);
  });

  it("logout renews the cookie: the member's token is refused for the visitor after", async () => {
    const c = TestClient.inject(t.app);
    await c.register(uniqueName());
    const memberToken = await c.token();
    const cookie = c.cookies.get('csrf');
    expect((await c.request('POST', authPaths.logout)).statusCode).toBe(200);
    expect(c.cookies.get('csrf')).not.toBe(cookie);
    const res = await c.request('POST', pathTo(memePaths.vote, { id: 1 }), {
      body: { voteType: 'up' },
      headers: { 'x-csrf-token': memberToken },
    });
    expect(res.statusCode).toBe(403);
  });

  it('names cookies __Host- when they are Secure, and keeps plain names on http', async () => {
    const plain = TestClient.inject(t.app);
    const plainReg = await plain.request('POST', authPaths.register, {
      body: { username: uniqueName(), password: 'secret1' },
      csrf: false,
    });
    expect(plainReg.cookies.map((c) => c.name).sort()).toEqual(['csrf', 'sid']);

    const https = await createTestApp(kind, { publicOrigin: 'https://grind.example' });
    try {
      const c = TestClient.inject(https.app);
      const origin = { origin: 'https://grind.example' };
      const reg = await c.request('POST', authPaths.register, {
        body: { username: uniqueName(), password: 'secret1' },
        csrf: false,
        headers: origin,
      });
      expect(reg.statusCode).toBe(201);
      expect(reg.cookies.map((x) => x.name).sort()).toEqual(['__Host-csrf', '__Host-sid']);
      for (const cookie of reg.cookies) {
        expect(cookie).toMatchObject({ secure: true, path: '/', httpOnly: true });
        expect(cookie.domain).toBeUndefined();
      }
      expect((await c.request('GET', authPaths.me)).json().user).not.toBeNull();
      // A bare-named cookie (what a plain-http page or a sibling host could plant) is not read.
      const bare = TestClient.inject(https.app);
      bare.cookies.set('sid', c.cookies.get('__Host-sid')!);
      expect((await bare.request('GET', authPaths.me)).json().user).toBeNull();
      const vote = await c.request('POST', pathTo(memePaths.vote, { id: 1 }), {
        body: { voteType: 'up' },
        headers: origin,
      });
      expect(vote.statusCode).toBe(404);
      const out = await c.request('POST', authPaths.logout, { headers: origin });
      expect(out.statusCode).toBe(200);
      expect(out.cookies.find((x) => x.name === '__Host-sid')?.value).toBe('');
    } finally {
      await https.close();
    }
  });
});
