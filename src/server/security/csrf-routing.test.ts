import { describe, expect, it } from 'vitest';
import { suiteApp, uniqueName } from '#test-support/test-app.ts';
import { TestClient } from '#test-support/test-client.ts';
import { databaseKinds } from '#test-support/test-database.ts';
import { authPaths } from '#shared/api/paths.ts';

describe.each(databaseKinds)(
  'the CSRF check goes by the route the router picked, on %s',
  (kind) => {
    const t = suiteApp(kind);

    async function member(): Promise<TestClient> {
      const c = TestClient.inject(t.app);
      await c.register(uniqueName());
      await c.token(); // the csrf cookie is there, as in a browser
      return c;
    }

    it.each([
      ['POST', '/%61pi/auth/logout', undefined],
      ['POST', '/api/auth/%6cogout', undefined],
      ['POST', `${authPaths.logout}?next=/api/auth/login`, undefined],
      ['POST', '/%61pi/memes/1/vote', { voteType: 'up' }],
      ['POST', '/%61pi/objects/upload', undefined],
      ['POST', '/%61pi/characters/default/select', undefined],
    ] as const)('%s %s with only the cookies is refused as CSRF', async (method, url, body) => {
      const c = await member();
      const res = await c.request(method, url, { csrf: false, body });
      expect(res.statusCode).toBe(403);
      expect(res.json()).toEqual({ message: 'CSRF token missing', code: 'CSRF' });
      expect((await c.request('GET', authPaths.me)).json().user).not.toBeNull();
    });

    it('refuses a text/plain body (what a cross-site form can send) on a body-less route, token or not', async () => {
      const c = await member();
      for (const csrf of [false, true]) {
        const res = await c.request('POST', authPaths.logout, {
          csrf,
          body: 'a=b',
          headers: { 'content-type': 'text/plain' },
        });
        expect(res.statusCode).toBe(415);
        expect(res.json().message).toMatch(/^Unsupported Media Type/);
      }
      expect((await c.request('GET', authPaths.me)).json().user).not.toBeNull();
      const emptyForm = await c.request('POST', authPaths.logout, {
        headers: { 'content-type': 'text/plain', 'content-length': '0' },
      });
      expect(emptyForm.statusCode).toBe(415);
    });

    it('refuses a text/plain login (a form posting JSON-looking text)', async () => {
      const name = uniqueName();
      await TestClient.inject(t.app).register(name, 'secret1');
      const res = await TestClient.inject(t.app).request('POST', authPaths.login, {
        csrf: false,
        body: JSON.stringify({ username: name, password: 'secret1' }),
        headers: { 'content-type': 'text/plain' },
      });
      expect(res.statusCode).toBe(415);
      expect(res.cookies.find((cookie) => cookie.name === 'sid')).toBeUndefined();
    });
  },
);
