import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { consolePaths, PASSKEY_STEP_UP_MS } from '#shared/api/console/common.ts';
import { createTestApp, suiteApp } from '#test-support/test-app.ts';
import { TestClient } from '#test-support/test-client.ts';
import { databaseKinds } from '#test-support/test-database.ts';
import { addPasskey, operator, passkeySignIn, PASSWORD } from '#test-support/operators.ts';
import { SoftAuthenticator } from '#test-support/soft-authenticator.ts';
import { listDecisions } from '../db/operator-log.ts';
import { CONSOLE_ROUTES } from '#test-support/console-routes.ts';

const ORIGIN = 'http://localhost:3000';

describe.each(databaseKinds)('operator console access on %s', (kind) => {
  const t = suiteApp(kind, { publicOrigin: ORIGIN });

  it('every console route: visitor 401, member 403, no fresh passkey 403, moderator on admin 403', async () => {
    const visitor = TestClient.inject(t.app);
    const member = await operator(t, 'member');
    const modNoPasskey = await operator(t, 'moderator');
    const adminNoPasskey = await operator(t, 'admin');
    const moderator = await operator(t, 'moderator', { passkey: true });
    for (const route of CONSOLE_ROUTES) {
      const call = (c: TestClient) =>
        c.request(route.method, route.path, route.body ? { body: route.body } : {});
      const label = `${route.method} ${route.path}`;
      const v = await call(visitor);
      expect(v.statusCode, label).toBe(401);
      expect(v.headers['cache-control'], label).toBe('no-store');
      const m = await call(member.client);
      expect(m.statusCode, label).toBe(403);
      expect(m.json().code, label).toBe('NOT_OPERATOR');
      if (route.needsPasskey) {
        for (const who of [modNoPasskey, adminNoPasskey]) {
          const res = await call(who.client);
          if (route.role === 'admin' && who === modNoPasskey) {
            expect(res.json().code, label).toBe('ADMIN_ONLY');
            continue;
          }
          expect(res.statusCode, label).toBe(403);
          expect(res.json(), label).toEqual({
            message: expect.any(String),
            code: 'PASSKEY_REQUIRED',
          });
        }
      }
      if (route.role === 'admin') {
        const res = await call(moderator.client);
        expect(res.statusCode, label).toBe(403);
        expect(res.json().code, label).toBe('ADMIN_ONLY');
      }
    }
  });

  it('every console route is in the OpenAPI document, for operators', async () => {
    const doc = (await TestClient.inject(t.app).request('GET', '/api/openapi.json')).json();
    for (const route of CONSOLE_ROUTES) {
      const path = route.pattern.replace(/:(\w+)/g, '{$1}');
      const op = doc.paths[path]?.[route.method.toLowerCase()];
      expect(op, `${route.method} ${path}`).toBeDefined();
      expect(op.security).toEqual([{ session: [] }]);
    }
  });

  it('a passkey needs the password again, then signs the session in for 15 sliding minutes', async () => {
    const mod = await operator(t, 'moderator');
    const me = async () => (await mod.client.request('GET', consolePaths.me)).json();
    expect(await me()).toMatchObject({
      role: 'moderator',
      passkeys: 0,
      passkeyFresh: false,
      rpId: 'localhost',
      hostProblem: null,
    });

    const wrong = await mod.client.request('POST', consolePaths.registrationOptions, {
      body: { password: 'not-the-password' },
    });
    expect(wrong.statusCode).toBe(403);
    expect(wrong.json().code).toBe('WRONG_PASSWORD');

    await addPasskey(mod.client, mod.authenticator);
    expect(await me()).toMatchObject({ passkeys: 1, passkeyFresh: true });
    expect((await mod.client.request('GET', consolePaths.passkeys)).statusCode).toBe(200);

    // Used within the window, it slides on; 15 idle minutes end it.
    t.clock.advance(PASSKEY_STEP_UP_MS - 60_000);
    expect((await mod.client.request('GET', consolePaths.passkeys)).statusCode).toBe(200);
    t.clock.advance(PASSKEY_STEP_UP_MS - 60_000);
    expect((await mod.client.request('GET', consolePaths.passkeys)).statusCode).toBe(200);
    t.clock.advance(PASSKEY_STEP_UP_MS + 1);
    const stale = await mod.client.request('GET', consolePaths.passkeys);
    expect(stale.statusCode).toBe(403);
    expect(stale.json().code).toBe('PASSKEY_REQUIRED');

    const signIn = await passkeySignIn(mod.client, mod.authenticator);
    expect(signIn.statusCode, signIn.body).toBe(200);
    const list = await mod.client.request('GET', consolePaths.passkeys);
    expect(list.statusCode).toBe(200);
    expect(list.json().passkeys).toHaveLength(1);
    expect(list.json().passkeys[0].lastUsedAt).toBe(t.clock.now());

    // A passkey sign-in is this session's alone: the same member elsewhere needs their own.
    const laptop = TestClient.inject(t.app);
    await laptop.login(mod.user.username, PASSWORD);
    expect((await laptop.request('GET', consolePaths.passkeys)).json().code).toBe(
      'PASSKEY_REQUIRED',
    );
  });

  it('refuses a passkey response for another challenge, origin or credential', async () => {
    const mod = await operator(t, 'moderator', { passkey: true });
    // Replaying an old answer: the challenge was used up.
    const options = (await mod.client.request('POST', consolePaths.authenticationOptions)).json();
    const answer = mod.authenticator.authenticate(options);
    expect(
      (
        await mod.client.request('POST', consolePaths.authentication, {
          body: { response: answer },
        })
      ).statusCode,
    ).toBe(200);
    const replay = await mod.client.request('POST', consolePaths.authentication, {
      body: { response: answer },
    });
    expect(replay.statusCode).toBe(400);
    expect(replay.json().code).toBe('PASSKEY_INVALID');
    // Signed for a look-alike site.
    const phished = (await mod.client.request('POST', consolePaths.authenticationOptions)).json();
    const res = await mod.client.request('POST', consolePaths.authentication, {
      body: { response: mod.authenticator.authenticate(phished, 'http://localhost.evil.example') },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().code).toBe('PASSKEY_INVALID');
    // Another operator's passkey does not sign this one in.
    const other = await operator(t, 'moderator', { passkey: true });
    const mine = (await mod.client.request('POST', consolePaths.authenticationOptions)).json();
    expect(() => other.authenticator.authenticate(mine)).toThrow(/no allowed credential/);
    // An authenticator that does not verify its user is refused.
    const lax = await operator(t, 'moderator');
    const noUv = new SoftAuthenticator(ORIGIN, false);
    const regOptions = (
      await lax.client.request('POST', consolePaths.registrationOptions, {
        body: { password: PASSWORD },
      })
    ).json();
    const reg = await lax.client.request('POST', consolePaths.registration, {
      body: { response: noUv.register(regOptions) },
    });
    expect(reg.statusCode).toBe(400);
    expect(reg.json().code).toBe('PASSKEY_INVALID');
  });

  it('reads the role on every request: a demotion holds at once', async () => {
    const mod = await operator(t, 'moderator', { passkey: true });
    expect((await mod.client.request('GET', consolePaths.log)).statusCode).toBe(200);
    await t.app.deps.db
      .updateTable('users')
      .set({ role: 'member' })
      .where('id', '=', mod.user.id)
      .execute();
    const res = await mod.client.request('GET', consolePaths.log);
    expect(res.statusCode).toBe(403);
    expect(res.json().code).toBe('NOT_OPERATOR');
  });

  it('logs passkey changes with the operator and address, and the log refuses changes', async () => {
    const mod = await operator(t, 'moderator', { passkey: true, ip: '203.0.113.9' });
    const second = await addPasskey(mod.client, mod.authenticator);
    const removed = await mod.client.request(
      'DELETE',
      consolePaths.passkey.replace(':id', String(second.id)),
    );
    expect(removed.statusCode).toBe(200);
    const entries = await listDecisions(t.app.deps.db, { operator: mod.user.username, limit: 10 });
    expect(entries.map((e) => e.kind)).toEqual(['passkey-remove', 'passkey-add', 'passkey-add']);
    expect(entries[0]).toMatchObject({ operatorId: mod.user.id, operatorAddress: '203.0.113.9' });
    const log = await mod.client.request('GET', `${consolePaths.log}?kind=passkey-remove`);
    expect(log.json().entries.every((e: { kind: string }) => e.kind === 'passkey-remove')).toBe(
      true,
    );
    await expect(
      sql`update operator_log set reason = 'x'`.execute(t.app.deps.db),
    ).rejects.toThrow();
    await expect(sql`delete from operator_log`.execute(t.app.deps.db)).rejects.toThrow();
  });

  it('console writes are limited per network', async () => {
    const mod = await operator(t, 'moderator', { passkey: true, ip: '198.51.100.77' });
    let last = 0;
    for (let i = 0; i < 70 && last !== 429; i++) {
      last = (await mod.client.request('DELETE', consolePaths.passkey.replace(':id', '999999')))
        .statusCode;
    }
    expect(last).toBe(429);
  });
});

describe.each(databaseKinds)('the console opened at an IP address on %s', (kind) => {
  it('says passkeys cannot work there and names the host to use', async () => {
    const t = await createTestApp(kind, { publicOrigin: 'http://127.0.0.1:3000' });
    try {
      const mod = await operator(t, 'moderator');
      const me = (await mod.client.request('GET', consolePaths.me)).json();
      expect(me.rpId).toBeNull();
      expect(me.hostProblem).toContain('http://localhost:3000/admin');
      const res = await mod.client.request('POST', consolePaths.registrationOptions, {
        body: { password: PASSWORD },
      });
      expect(res.statusCode).toBe(400);
      expect(res.json().code).toBe('PASSKEY_HOST');
    } finally {
      await t.close();
    }
  });
});
