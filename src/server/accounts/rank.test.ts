import { describe, expect, it } from 'vitest';
import { consolePaths } from '#shared/api/console/common.ts';
import { appealPaths, pathTo } from '#shared/api/paths.ts';
import { runAdminIn } from '#test-support/admin-cli.ts';
import { postMeme } from '#test-support/gallery.ts';
import { operator } from '#test-support/operators.ts';
import { suiteApp } from '#test-support/test-app.ts';
import { databaseKinds } from '#test-support/test-database.ts';
import { listDecisions } from '../db/operator-log.ts';

const byName = (pattern: string, username: string) => pattern.replace(':username', username);

describe.each(databaseKinds)('rank in the console and the CLI on %s', (kind) => {
  const t = suiteApp(kind, { publicOrigin: 'http://localhost:3000' });

  it('a moderator cannot suspend, lift, sign out or hide the memes of an admin, another moderator or themselves', async () => {
    const mod = await operator(t, 'moderator', { passkey: true, ip: '203.0.113.81' });
    const otherMod = await operator(t, 'moderator', { ip: '203.0.113.82' });
    const admin = await operator(t, 'admin', { ip: '203.0.113.83' });
    const adminMeme = await postMeme(t.app, admin.client, { title: 'An admin meme' });
    const logBefore = await listDecisions(t.app.deps.db, { limit: 1000 });

    for (const target of [admin.user.username, otherMod.user.username, mod.user.username]) {
      for (const [path, body] of [
        [consolePaths.suspend, { length: 'day', reason: 'deposing' }],
        [consolePaths.lift, { reason: 'lifting' }],
        [consolePaths.endSessions, { reason: 'signing out' }],
      ] as const) {
        const res = await mod.client.request('POST', byName(path, target), { body });
        expect(res.statusCode, `${path} on ${target}`).toBe(403);
        expect(res.json().code).toBe('RANK_PROTECTED');
      }
    }
    const hide = await mod.client.request(
      'POST',
      pathTo(consolePaths.memeDecision, { id: adminMeme.id }),
      { body: { decision: 'hide', reason: 'not liked' } },
    );
    expect(hide.statusCode).toBe(403);
    expect(hide.json().code).toBe('RANK_PROTECTED');
    // Nothing happened: the admin is still signed in, no row on the log.
    expect((await admin.client.request('GET', '/api/auth/me')).json().user).not.toBeNull();
    expect(await listDecisions(t.app.deps.db, { limit: 1000 })).toHaveLength(logBefore.length);
  });

  it('an admin acts on a moderator; a moderator decides an admin-suspended peer appeal only when it outranks them', async () => {
    const admin = await operator(t, 'admin', { passkey: true, ip: '203.0.113.84' });
    const mod = await operator(t, 'moderator', { passkey: true, ip: '203.0.113.85' });
    const suspended = await operator(t, 'moderator', { ip: '203.0.113.86' });
    const res = await admin.client.request(
      'POST',
      byName(consolePaths.suspend, suspended.user.username),
      { body: { length: 'day', reason: 'abused the queue' } },
    );
    expect(res.statusCode).toBe(200);
    const appeal = await suspended.client.request('POST', appealPaths.appeal, {
      body: { text: 'I did nothing wrong, please look again.' },
    });
    expect(appeal.statusCode).toBe(201);
    const { id } = appeal.json().appeal;
    const path = pathTo(consolePaths.appealDecision, { id });
    const byPeer = await mod.client.request('POST', path, {
      body: { decision: 'lift', reason: 'my friend' },
    });
    expect(byPeer.statusCode, byPeer.body).toBe(403);
    expect(byPeer.json().code).toBe('RANK_PROTECTED');
    const byAdmin = await admin.client.request('POST', path, {
      body: { decision: 'uphold', reason: 'the log shows it' },
    });
    expect(byAdmin.statusCode).toBe(200);
  });

  it('the CLI (the database holder) outranks every role', async () => {
    const admin = await operator(t, 'admin', { ip: '203.0.113.87' });
    const meme = await postMeme(t.app, admin.client, { title: 'Hidden by the shell' });
    const hidden = await runAdminIn(t, ['memes:hide', String(meme.id), '--reason', 'cli test']);
    expect(hidden.code, hidden.text).toBe(0);
  });
});
