// Issue 19, finding 7: a name that only looks like a member's is refused wherever a name is
// chosen, and a visitor's entry under a name a member later takes is not shown on the board.
import { beforeAll, describe, expect, it } from 'vitest';
import { suiteApp } from '#test-support/test-app.ts';
import { TestClient } from '#test-support/test-client.ts';
import { databaseKinds } from '#test-support/test-database.ts';
import { LOOK_ALIKES_OF_ADMIN } from '#test-support/look-alike-names.ts';
import { insertVisitorEntry, play, reportPaced, scoreBody } from '#test-support/test-play.ts';
import { authPaths, gamePaths } from '#shared/api/paths.ts';

describe.each(databaseKinds)('look-alike names on %s', (kind) => {
  const t = suiteApp(kind);
  beforeAll(async () => {
    await TestClient.inject(t.app).register('admin');
  });

  const users = () =>
    t.app.deps.db.selectFrom('users').select(['id', 'username']).orderBy('id').execute();

  it.each(LOOK_ALIKES_OF_ADMIN)(
    'refuses registering %s beside a member admin',
    async (_form, name) => {
      const before = await users();
      const res = await TestClient.inject(t.app).request('POST', authPaths.register, {
        body: { username: name, password: 'password123' },
        csrf: false,
      });
      // Names outside [A-Za-z0-9_-] are refused by the form's rule (400), ASCII look-alikes as taken.
      expect([400, 409], res.body).toContain(res.statusCode);
      if (res.statusCode === 409) {
        expect(res.json<{ message: string }>().message).toBe('Username is already taken');
      }
      expect(await users()).toEqual(before);
    },
  );

  it('refuses every look-alike of a member as a visitor name, and takes an unlike one', async () => {
    const visitor = TestClient.inject(t.app);
    const run = await play(visitor);
    await reportPaced(TestClient.inject(t.app), t.clock, [run]);
    const scores = () => t.app.deps.db.selectFrom('game_scores').select('id').execute();
    const before = await scores();
    for (const [form, name] of LOOK_ALIKES_OF_ADMIN) {
      const res = await visitor.request('POST', gamePaths.scores, { body: scoreBody(run, name) });
      // Some invisible characters are refused by the name's own rule (400), the rest as a member's.
      expect([400, 422], `${form}: ${res.body}`).toContain(res.statusCode);
      expect(res.json<{ message: string }>().message, form).toMatch(
        res.statusCode === 400
          ? /characters that are not allowed/
          : /belongs to a registered member/,
      );
    }
    expect(await scores()).toEqual(before);
    // The same run under a name nobody holds is taken: the refusals were about the name only.
    const res = await visitor.request('POST', gamePaths.scores, {
      body: scoreBody(run, 'adnim'),
    });
    expect(res.statusCode, res.body).toBe(201);
  });

  it("stops listing a visitor's entry once a member takes that name or one like it", async () => {
    const now = t.clock.now();
    const entry = (runId: string, playerName: string, score: number) =>
      insertVisitorEntry(t.app.deps.db, { runId, playerName, score, now });
    const ghost = await entry(`ghost-${kind}`, '\uFF27host', 900);
    const casper = await entry(`casper-${kind}`, 'Casper', 800);
    const board = async (limit: number) =>
      (await TestClient.inject(t.app).request('GET', `${gamePaths.leaderboard}?limit=${limit}`))
        .json<{ id: number; playerName: string }[]>()
        .map((e) => e.id);
    // Distinct limits are distinct cache keys: each read below is loaded afresh.
    expect((await board(41)).slice(0, 2)).toEqual([ghost, casper]);

    await TestClient.inject(t.app).register('ghost');
    const after = await board(42);
    expect(after).not.toContain(ghost);
    expect(after[0]).toBe(casper);
  });
});
