import { listDecisions } from '../db/operator-log.ts';
import { runAdminIn } from '#test-support/admin-cli.ts';
import { describe, expect, it } from 'vitest';
import { postMeme } from '#test-support/gallery.ts';
import { suiteApp, uniqueName } from '#test-support/test-app.ts';
import { TestClient } from '#test-support/test-client.ts';
import { databaseKinds } from '#test-support/test-database.ts';
import { play, reportPaced, scoreBody } from '#test-support/test-play.ts';
import { READ_CACHE_LONGEST_MS } from '../http/read-cache.ts';
import { findInvariantViolations } from '#test-support/invariants.ts';
import { creditCoins } from '../shop/ledger.ts';
import { authPaths, gamePaths, memePaths, shopPaths, pathTo } from '#shared/api/paths.ts';

describe.each(databaseKinds)('account operator commands on %s', (kind) => {
  const t = suiteApp(kind);
  let lines: string[];

  async function admin(...argv: string[]): Promise<number> {
    const run = await runAdminIn(t, argv);
    lines = [...run.out, ...run.err];
    return run.code;
  }

  const me = async (c: TestClient) => (await c.request('GET', authPaths.me)).json().user;

  it('each has --help, and a name no member has is refused', async () => {
    for (const name of ['users:sessions:revoke', 'users:password:reset', 'users:delete']) {
      expect(await admin(name, '--help')).toBe(0);
      expect(lines[0]).toBe(`Usage: npm run admin -- ${name} <username>`);
      expect(await admin(name)).toBe(2);
      expect(await admin(name, 'nobody_at_all')).toBe(1);
      expect(lines).toEqual(['No member named "nobody_at_all".']);
    }
  });

  it('users:sessions:revoke signs a member out on every device', async () => {
    const name = uniqueName('revoked');
    const phone = TestClient.inject(t.app);
    await phone.register(name);
    const laptop = TestClient.inject(t.app);
    expect((await laptop.login(name)).statusCode).toBe(200);
    const other = TestClient.inject(t.app);
    await other.register(uniqueName());
    expect(await admin('users:sessions:revoke', name)).toBe(0);
    expect(lines).toEqual([`Ended 2 session(s) of ${name}.`]);
    expect(await me(phone)).toBeNull();
    expect(await me(laptop)).toBeNull();
    expect(await me(other)).not.toBeNull();
    expect((await TestClient.inject(t.app).login(name)).statusCode).toBe(200);
    // The same rule as the console's End sessions: on the operator log.
    const logged = await listDecisions(t.app.deps.db, { kind: 'end-sessions', limit: 50 });
    expect(logged.map((d) => d.targetLabel)).toContain(name);
  });

  it('users:password:reset prints a new password, refuses the old one and ends sessions', async () => {
    const name = uniqueName('reset');
    const c = TestClient.inject(t.app);
    await c.register(name, 'old-password');
    expect(await admin('users:password:reset', name)).toBe(0);
    const password = /^New password for .+: (\S+)$/.exec(lines[0]!)![1]!;
    expect(password.length).toBeGreaterThanOrEqual(16);
    expect(lines[1]).toBe('Ended 1 session(s); the old password no longer works.');
    expect(await me(c)).toBeNull();
    expect((await TestClient.inject(t.app).login(name, 'old-password')).statusCode).toBe(401);
    expect((await TestClient.inject(t.app).login(name, password)).statusCode).toBe(200);
  });

  it('users:delete removes the member and what is theirs, and every invariant still holds', async () => {
    const db = t.app.deps.db;
    const name = uniqueName('gone');
    const gone = TestClient.inject(t.app);
    const goneUser = await gone.register(name);
    const stays = TestClient.inject(t.app);
    const staysUser = await stays.register(uniqueName('stays'));
    for (const userId of [goneUser.id, staysUser.id]) {
      await creditCoins(db, { userId, amount: 500, reason: 'grant', now: t.clock.now() });
    }
    expect(
      (await gone.request('POST', pathTo(shopPaths.purchase, { key: 'hardhat' }))).statusCode,
    ).toBe(200);
    const meme = await postMeme(t.app, gone);
    expect(
      (
        await stays.request('POST', pathTo(memePaths.vote, { id: meme.id }), {
          body: { voteType: 'up' },
        })
      ).statusCode,
    ).toBe(200);
    // A run that picked up coins, so its credit is in the ledger (a short run may collect none).
    let runs = 0;
    let run;
    do {
      runs += 1;
      run = await play(gone, 600, t.clock);
    } while (run.result.coins === 0 && runs < 10);
    await reportPaced(gone, t.clock, run);
    expect(
      (await gone.request('POST', gamePaths.scores, { body: scoreBody(run, name) })).statusCode,
    ).toBe(201);
    expect(
      (
        await gone.request('POST', gamePaths.coins, {
          body: { amount: run.result.coins, runId: run.runId },
        })
      ).statusCode,
    ).toBe(200);
    const imageKey = meme.imageUrl.replace(/^\/objects\//, '');
    expect(await t.app.deps.objectStore!.getObjectBuffer(imageKey, 10_000_000)).not.toBeNull();
    const staysBefore = await db
      .selectFrom('coin_ledger')
      .selectAll()
      .where('user_id', '=', staysUser.id)
      .execute();

    expect(await admin('users:delete', name), lines.join('\n')).toBe(0);
    expect(lines[0]).toMatch(
      new RegExp(
        `^Deleted ${name} \\(#${goneUser.id}\\): \\d+ coins with their ledger, ${runs} run\\(s\\), 1 leaderboard entry, 2 image file\\(s\\)`,
      ),
    );

    // The CLI is another process: a node stops honouring the session once its kept copy is past
    // the longest the read cache serves one (decision 011).
    t.clock.advance(READ_CACHE_LONGEST_MS + 1);
    expect(await me(gone)).toBeNull();
    expect((await TestClient.inject(t.app).login(name)).statusCode).toBe(401);
    expect(
      await db.selectFrom('users').select('id').where('id', '=', goneUser.id).executeTakeFirst(),
    ).toBeUndefined();
    expect(
      await db.selectFrom('memes').select('id').where('id', '=', meme.id).executeTakeFirst(),
    ).toBeUndefined();
    expect(
      await db.selectFrom('game_scores').select('id').where('player_name', '=', name).execute(),
    ).toEqual([]);
    expect(
      await db.selectFrom('coin_ledger').selectAll().where('user_id', '=', staysUser.id).execute(),
    ).toEqual(staysBefore);
    expect((await stays.request('GET', shopPaths.profile)).json().coins).toBe(500);
    expect(await t.app.deps.objectStore!.getObjectBuffer(imageKey, 10_000_000)).toBeNull();
    expect(await findInvariantViolations(db, t.app.deps.objectStore!)).toEqual([]);
    // The name is free again.
    expect(
      (
        await TestClient.inject(t.app).request('POST', authPaths.register, {
          body: { username: name, password: 'password123' },
          csrf: false,
        })
      ).statusCode,
    ).toBe(201);
  });
});
