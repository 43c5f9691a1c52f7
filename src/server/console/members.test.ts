import { describe, expect, it } from 'vitest';
import { consolePaths } from '#shared/api/console/common.ts';
import {
  authPaths,
  gamePaths,
  memePaths,
  objectPaths,
  pathTo,
  shopPaths,
  walletPaths,
} from '#shared/api/paths.ts';
import { postMeme } from '#test-support/gallery.ts';
import { operator } from '#test-support/operators.ts';
import { suiteApp, uniqueName } from '#test-support/test-app.ts';
import { TestClient } from '#test-support/test-client.ts';
import { databaseKinds } from '#test-support/test-database.ts';
import { listDecisions } from '../db/operator-log.ts';

const DAY_MS = 24 * 60 * 60 * 1000;

describe.each(databaseKinds)('members in the console on %s', (kind) => {
  const t = suiteApp(kind, { publicOrigin: 'http://localhost:3000' });
  const path = (pattern: string, username: string) => pattern.replace(':username', username);

  it('finds a member and shows their memes, coins, reports and decisions', async () => {
    const mod = await operator(t, 'moderator', { passkey: true });
    const client = TestClient.inject(t.app);
    const name = uniqueName('shown');
    await client.register(name);
    const meme = await postMeme(t.app, client, { title: 'Theirs' });
    await TestClient.inject(t.app, '198.18.50.1').request(
      'POST',
      pathTo(memePaths.report, { id: meme.id }),
      { body: { reason: 'spam' } },
    );
    const found = (
      await mod.client.request('GET', `${consolePaths.members}?q=${name.slice(0, 8)}`)
    ).json();
    expect(found.members.map((m: { username: string }) => m.username)).toContain(name);
    const detail = (await mod.client.request('GET', path(consolePaths.member, name))).json();
    expect(detail).toMatchObject({
      member: { username: name, role: 'member', coins: 0, wallet: null, sessions: 1 },
      memes: [{ id: meme.id, title: 'Theirs', hidden: false }],
      reportsAgainst: 1,
      suspensions: [],
      decisions: [],
    });
    expect(
      (await mod.client.request('GET', path(consolePaths.member, 'nobody_here'))).statusCode,
    ).toBe(404);
  });

  it('a suspended member cannot post, vote, report, buy, start or report a run or link a wallet (403 with reason and end), reads still work; lifting restores', async () => {
    const mod = await operator(t, 'moderator', { passkey: true, ip: '203.0.113.61' });
    const other = TestClient.inject(t.app);
    await other.register(uniqueName('poster'));
    const meme = await postMeme(t.app, other, { title: 'Vote on me' });
    const client = TestClient.inject(t.app);
    const name = uniqueName('susp');
    await client.register(name);
    const suspended = await mod.client.request('POST', path(consolePaths.suspend, name), {
      body: { length: 'week', reason: 'vote brigading' },
    });
    expect(suspended.statusCode).toBe(200);
    const endsAt = t.clock.now() + 7 * DAY_MS;
    expect(suspended.json().suspension).toMatchObject({ endsAt, active: true });
    const again = await mod.client.request('POST', path(consolePaths.suspend, name), {
      body: { length: 'day', reason: 'twice' },
    });
    expect(again.statusCode).toBe(409);

    const until = new Date(endsAt).toISOString().slice(0, 16).replace('T', ' ');
    const writes = [
      () =>
        client.request('POST', pathTo(memePaths.vote, { id: meme.id }), {
          body: { voteType: 'up' },
        }),
      () =>
        client.request('POST', pathTo(memePaths.report, { id: meme.id }), {
          body: { reason: 'spam' },
        }),
      () => client.request('POST', memePaths.uploadTarget),
      () => client.request('POST', pathTo(shopPaths.purchase, { key: 'ninja' })),
      () => client.request('POST', gamePaths.runs, { body: {} }),
      () => client.request('POST', pathTo(gamePaths.progress, { runId: 'r1' }), { body: {} }),
      () => client.request('POST', walletPaths.challenge, { body: {} }),
      () => client.request('POST', walletPaths.link, { body: {} }),
      () => client.request('POST', memePaths.create, { body: {} }),
      () => client.request('PUT', memePaths.memeImages, { body: {} }),
      () => client.request('POST', gamePaths.scores, { body: {} }),
      () => client.request('POST', gamePaths.coins, { body: {} }),
      // An upload address handed out before the suspension is no good after it.
      () => client.request('PUT', `${objectPaths.localUploadPrefix}any-token`),
    ];
    for (const write of writes) {
      const res = await write();
      expect(res.statusCode, res.body).toBe(403);
      expect(res.json()).toEqual({
        message: `Your account is suspended until ${until} UTC: vote brigading`,
        code: 'SUSPENDED',
      });
    }
    expect((await client.request('GET', memePaths.list)).statusCode).toBe(200);
    expect((await client.request('GET', pathTo(memePaths.one, { id: meme.id }))).statusCode).toBe(
      200,
    );
    expect((await client.request('GET', authPaths.me)).json().user.username).toBe(name);

    const lifted = await mod.client.request('POST', path(consolePaths.lift, name), {
      body: { reason: 'talked it through' },
    });
    expect(lifted.json()).toEqual({ lifted: 1, restored: null });
    expect((await writes[0]!()).statusCode).toBe(200);

    // A suspension for a day runs out by itself.
    await mod.client.request('POST', path(consolePaths.suspend, name), {
      body: { length: 'day', reason: 'one more time' },
    });
    expect((await writes[0]!()).statusCode).toBe(403);
    t.clock.advance(DAY_MS + 1);
    await mod.client.request('GET', consolePaths.me); // (the passkey window has lapsed; reads only)
    expect((await writes[0]!()).statusCode).toBe(200);

    const member = (await client.request('GET', authPaths.me)).json().user;
    const log = await listDecisions(t.app.deps.db, {
      targetType: 'member',
      targetId: String(member.id),
      limit: 10,
    });
    expect(log.map((e) => [e.kind, e.reason])).toEqual([
      ['suspend', 'one more time'],
      ['lift', 'talked it through'],
      ['suspend', 'vote brigading'],
    ]);
    expect(log[2]).toMatchObject({
      operatorId: mod.user.id,
      operatorAddress: '203.0.113.61',
      details: { length: 'week' },
    });
  });

  it('ends the sessions of a member everywhere, logged', async () => {
    const mod = await operator(t, 'moderator', { passkey: true });
    const phone = TestClient.inject(t.app);
    const name = uniqueName('ended');
    await phone.register(name);
    const laptop = TestClient.inject(t.app);
    await laptop.login(name);
    const res = await mod.client.request('POST', path(consolePaths.endSessions, name), {
      body: { reason: 'account taken over' },
    });
    expect(res.json()).toEqual({ ended: 2 });
    t.clock.advance(3000);
    expect((await phone.request('GET', authPaths.me)).json().user).toBeNull();
    expect((await laptop.request('GET', authPaths.me)).json().user).toBeNull();
    const [entry] = await listDecisions(t.app.deps.db, { kind: 'end-sessions', limit: 1 });
    expect(entry).toMatchObject({
      targetLabel: name,
      reason: 'account taken over',
      details: { ended: 2 },
    });
  });
});
