import { describe, expect, it } from 'vitest';
import { consolePaths, PASSKEY_STEP_UP_MS } from '#shared/api/console/common.ts';
import { runAdminIn } from '#test-support/admin-cli.ts';
import { createTestApp, suiteApp } from '#test-support/test-app.ts';
import { TestClient } from '#test-support/test-client.ts';
import { databaseKinds } from '#test-support/test-database.ts';
import { addPasskey, operator, passkeySignIn, PASSWORD } from '#test-support/operators.ts';
import { SoftAuthenticator } from '#test-support/soft-authenticator.ts';
import { listDecisions } from '../db/operator-log.ts';

const ORIGIN = 'http://localhost:3000';

/** The member's session on another device, signed in with the password. */
async function laptopOf(t: { app: Parameters<typeof TestClient.inject>[0] }, username: string) {
  const laptop = TestClient.inject(t.app);
  expect((await laptop.login(username, PASSWORD)).statusCode).toBe(200);
  return laptop;
}

const meStatus = async (client: TestClient) =>
  (await client.request('GET', consolePaths.me)).statusCode;

/** The options to add a passkey, asked with the password as the console page asks. */
const registrationOptions = async (client: TestClient) =>
  (
    await client.request('POST', consolePaths.registrationOptions, {
      body: { password: PASSWORD },
    })
  ).json();

/** Answers the registration ceremony with an authenticator's `response`. */
const registration = (client: TestClient, response: unknown) =>
  client.request('POST', consolePaths.registration, { body: { response } });

describe.each(databaseKinds)('passkey ceremonies on %s', (kind) => {
  const t = suiteApp(kind, { publicOrigin: ORIGIN });

  it('a stolen session cannot add its own passkey: a sign-in challenge does not register one', async () => {
    const admin = await operator(t, 'admin', { passkey: true });
    // The thief holds the admin's cookie, an hour after the admin's passkey sign-in.
    t.clock.advance(PASSKEY_STEP_UP_MS + 1);
    const thief = admin.client;
    expect((await thief.request('GET', consolePaths.passkeys)).json().code).toBe(
      'PASSKEY_REQUIRED',
    );
    const signInOptions = await thief.request('POST', consolePaths.authenticationOptions);
    expect(signInOptions.statusCode).toBe(200);
    const options = signInOptions.json();
    const thiefsKey = new SoftAuthenticator(ORIGIN);
    const made = thiefsKey.register({ ...options, rp: { id: options.rpId } });
    const added = await registration(thief, made);
    expect(added.statusCode).toBe(400);
    expect(added.json().code).toBe('PASSKEY_INVALID');
    expect((await thief.request('GET', consolePaths.passkeys)).json().code).toBe(
      'PASSKEY_REQUIRED',
    );
    expect((await thief.request('GET', consolePaths.me)).json()).toMatchObject({
      passkeys: 1,
      passkeyFresh: false,
    });
  });

  it('a challenge serves its own ceremony once, for five minutes', async () => {
    const mod = await operator(t, 'moderator', { passkey: true });
    const signIn = (await mod.client.request('POST', consolePaths.authenticationOptions)).json();
    // Options made to add a passkey (after the password) do not sign the session in.
    const reg = await registrationOptions(mod.client);
    const crossed = mod.authenticator.authenticate({
      rpId: reg.rp.id,
      challenge: reg.challenge,
      allowCredentials: signIn.allowCredentials,
    });
    const wrongCeremony = await mod.client.request('POST', consolePaths.authentication, {
      body: { response: crossed },
    });
    expect(wrongCeremony.statusCode).toBe(400);
    expect(wrongCeremony.json().code).toBe('PASSKEY_INVALID');

    // Once: the registration answered, the same answer again is refused.
    const answer = mod.authenticator.register(await registrationOptions(mod.client));
    const first = await registration(mod.client, answer);
    expect(first.statusCode).toBe(201);
    const again = await registration(mod.client, answer);
    expect(again.statusCode).toBe(400);
    expect(again.json().code).toBe('PASSKEY_INVALID');

    // Five minutes: the browser is told the same.
    const late = await registrationOptions(mod.client);
    expect(late.timeout).toBe(5 * 60 * 1000);
    t.clock.advance(5 * 60 * 1000 + 1);
    const expired = await registration(mod.client, mod.authenticator.register(late));
    expect(expired.statusCode).toBe(400);
    expect(expired.json().code).toBe('PASSKEY_INVALID');
  });

  it('adding or removing a passkey ends every other session of the member, not this one', async () => {
    const mod = await operator(t, 'moderator', { passkey: true });
    const laptop = await laptopOf(t, mod.user.username);
    expect(await meStatus(laptop)).toBe(200);
    const second = await addPasskey(mod.client, mod.authenticator);
    expect(await meStatus(laptop)).toBe(401);
    expect((await mod.client.request('GET', consolePaths.passkeys)).statusCode).toBe(200);

    const phone = await laptopOf(t, mod.user.username);
    const removed = await mod.client.request(
      'DELETE',
      consolePaths.passkey.replace(':id', String(second.id)),
    );
    expect(removed.statusCode).toBe(200);
    expect(await meStatus(phone)).toBe(401);
    expect((await mod.client.request('GET', consolePaths.passkeys)).statusCode).toBe(200);

    const entries = await listDecisions(t.app.deps.db, { operator: mod.user.username, limit: 2 });
    expect(entries.map((e) => [e.kind, e.details.endedSessions])).toEqual([
      ['passkey-remove', 1],
      ['passkey-add', 1],
    ]);
  });

  it('an operator keeps a named backup passkey, names the first later, and signs in with either', async () => {
    const mod = await operator(t, 'moderator', { passkey: true });
    const [first] = (await mod.client.request('GET', consolePaths.passkeys)).json().passkeys;
    expect(first.name).toBeNull();
    const backupKey = new SoftAuthenticator(ORIGIN);
    const added = await mod.client.request('POST', consolePaths.registration, {
      body: {
        response: backupKey.register(await registrationOptions(mod.client)),
        name: '  YubiKey 5C  ',
      },
    });
    expect(added.statusCode).toBe(201);
    expect(added.json().passkey).toMatchObject({ name: 'YubiKey 5C' });
    const rename = (id: number, name: string) =>
      mod.client.request('PUT', consolePaths.passkeyName.replace(':id', String(id)), {
        body: { name },
      });
    expect((await rename(first.id, 'Work laptop')).json().passkey.name).toBe('Work laptop');
    for (const refused of ['', ' ', 'x'.repeat(65), 'bidi \u202E name']) {
      expect((await rename(first.id, refused)).statusCode, refused).toBe(400);
    }
    // Another operator's passkey is not theirs to name.
    const other = await operator(t, 'moderator', { passkey: true });
    expect((await rename(first.id, 'Mine now')).statusCode).toBe(200);
    const theirs = (await other.client.request('GET', consolePaths.passkeys)).json().passkeys[0];
    expect((await rename(theirs.id, 'Stolen')).statusCode).toBe(404);
    expect(
      (await mod.client.request('GET', consolePaths.passkeys))
        .json()
        .passkeys.map((p: { name: string | null }) => p.name),
    ).toEqual(['Mine now', 'YubiKey 5C']);

    // Either device signs the console in.
    t.clock.advance(PASSKEY_STEP_UP_MS + 1);
    for (const device of [mod.authenticator, backupKey]) {
      expect((await passkeySignIn(mod.client, device)).statusCode).toBe(200);
    }
    const log = await listDecisions(t.app.deps.db, { operator: mod.user.username, limit: 3 });
    expect(log.map((e) => [e.kind, e.details.name])).toEqual([
      ['passkey-rename', 'Mine now'],
      ['passkey-rename', 'Work laptop'],
      ['passkey-add', 'YubiKey 5C'],
    ]);
  });

  it('a passkey reset ends every session of the member, so a stolen cookie is dead', async () => {
    const mod = await operator(t, 'moderator', { passkey: true });
    const laptop = await laptopOf(t, mod.user.username);
    const reset = await runAdminIn(t, ['users:passkeys:reset', mod.user.username]);
    expect(reset.code, reset.text).toBe(0);
    expect(await meStatus(mod.client)).toBe(401);
    expect(await meStatus(laptop)).toBe(401);
    const stolen = await mod.client.request('POST', consolePaths.authenticationOptions);
    expect(stolen.statusCode).toBe(401);
    const [entry] = await listDecisions(t.app.deps.db, { kind: 'passkeys-reset', limit: 1 });
    expect(entry).toMatchObject({
      targetLabel: mod.user.username,
      details: { removed: 1, endedSessions: 2 },
    });
  });

  it('a role change ends every session of the member; the same role again ends none', async () => {
    const member = await operator(t, 'member');
    const laptop = await laptopOf(t, member.user.username);
    expect(await meStatus(member.client)).toBe(403);
    const promoted = await runAdminIn(t, ['users:role', member.user.username, 'moderator']);
    expect(promoted.code, promoted.text).toBe(0);
    // A session opened as a member does not become a moderator's.
    expect(await meStatus(member.client)).toBe(401);
    expect(await meStatus(laptop)).toBe(401);

    const signedIn = await laptopOf(t, member.user.username);
    expect(await meStatus(signedIn)).toBe(200);
    await runAdminIn(t, ['users:role', member.user.username, 'moderator']);
    expect(await meStatus(signedIn)).toBe(200);
    await runAdminIn(t, ['users:role', member.user.username, 'member']);
    expect(await meStatus(signedIn)).toBe(401);
  });
});

describe.each(databaseKinds)('the relying party without PUBLIC_ORIGIN on %s', (kind) => {
  const t = suiteApp(kind, { publicOrigin: undefined });

  it('is localhost at localhost, and refused with one message at any other host', async () => {
    // At localhost (inject's own Host) passkeys work, for a developer's machine.
    const local = await operator(t, 'moderator', { passkey: true });
    expect((await local.client.request('GET', consolePaths.me)).json()).toMatchObject({
      rpId: 'localhost',
      hostProblem: null,
      passkeyFresh: true,
    });

    // Any other Host header is the client's word: no ceremony takes it as the site.
    const mod = await operator(t, 'moderator');
    const headers = { host: 'console.example.com' };
    const me = (await mod.client.request('GET', consolePaths.me, { headers })).json();
    expect(me.rpId).toBeNull();
    expect(me.hostProblem).toMatch(/PUBLIC_ORIGIN is not set/);
    for (const [path, body] of [
      [consolePaths.registrationOptions, { password: PASSWORD }],
      [consolePaths.registration, { response: {} }],
      [consolePaths.authenticationOptions, undefined],
      [consolePaths.authentication, { response: {} }],
    ] as const) {
      const res = await mod.client.request('POST', path, { headers, body });
      expect(res.statusCode, path).toBe(400);
      expect(res.json(), path).toEqual({ message: me.hostProblem, code: 'PASSKEY_NO_ORIGIN' });
    }
  });
});

describe.each(databaseKinds)('the relying party with PUBLIC_ORIGIN on %s', (kind) => {
  it("is PUBLIC_ORIGIN's host whatever the Host header says", async () => {
    const t = await createTestApp(kind, { publicOrigin: 'https://console.example.com' });
    try {
      const mod = await operator(t, 'moderator');
      const headers = { host: 'evil.example.net' };
      const me = (await mod.client.request('GET', consolePaths.me, { headers })).json();
      expect(me).toMatchObject({ rpId: 'console.example.com', hostProblem: null });
      const options = await mod.client.request('POST', consolePaths.registrationOptions, {
        headers,
        body: { password: PASSWORD },
      });
      expect(options.statusCode, options.body).toBe(200);
      expect(options.json().rp.id).toBe('console.example.com');
    } finally {
      await t.close();
    }
  });
});
