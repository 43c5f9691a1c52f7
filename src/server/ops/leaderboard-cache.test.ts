// The leaderboard under the one read-cache rule (docs/decisions/011-one-read-cache-rule.md), seen
// through the route: another node's writes (here: rows written straight to the database) show
// within the cache's second; this node's own submissions show at once.
import { describe, expect, it } from 'vitest';
import { insertVisitorEntry, play, reportPaced, scoreBody } from '#test-support/test-play.ts';
import { suiteApp } from '#test-support/test-app.ts';
import { TestClient } from '#test-support/test-client.ts';
import { databaseKinds } from '#test-support/test-database.ts';
import { gamePaths } from '#shared/api/paths.ts';

describe.each(databaseKinds)('the cached leaderboard on %s', (kind) => {
  const t = suiteApp(kind);

  let seeded = 0;
  /** A score written by "another node": straight into the database, past this node's cache. */
  const elsewhere = (name: string, score: number) =>
    insertVisitorEntry(t.app.deps.db, {
      runId: `elsewhere-${kind}-${++seeded}`,
      playerName: name,
      score,
      now: t.clock.now(),
    });

  const board = async (client: TestClient, limit: number) =>
    (await client.request('GET', `${gamePaths.leaderboard}?limit=${limit}`))
      .json<Array<{ id: number; score: number }>>()
      .map((e) => e.id);

  it("shows another node's scores within a second, this node's at once", async () => {
    const visitor = TestClient.inject(t.app);
    const first = await elsewhere('First', 5000);
    const second = await elsewhere('Second', 4000);
    expect(await board(visitor, 2)).toEqual([first, second]);

    const third = await elsewhere('Third', 4500);
    expect(await board(visitor, 2)).toEqual([first, second]);
    t.clock.advance(1000);
    expect(await board(visitor, 2)).toEqual([first, second]);
    t.clock.advance(1);
    // Expired: the stale list answers while one refresh runs; the next request has the new one.
    await board(visitor, 2);
    await expect.poll(() => board(visitor, 2)).toEqual([first, third]);

    // A run submitted here shows at once, in every list; so does what other nodes wrote before.
    expect(await board(visitor, 50)).toEqual([first, third, second]);
    const hidden = await elsewhere('Hidden', 1);
    expect(await board(visitor, 50)).toEqual([first, third, second]);
    const run = await play(visitor, 120);
    await reportPaced(TestClient.inject(t.app), t.clock, run);
    // The submission's live event comes back to this node too (at once in process, a moment later
    // over PostgreSQL's NOTIFY) and clears the board again; the checks below wait for it, so they
    // are about the cache's second alone (CI once saw the echo land between them).
    const echoed = new Promise<void>((resolve) =>
      t.app.deps.live.onEvent((event) => {
        if (event.type === 'leaderboard') resolve();
      }),
    );
    const res = await visitor.request('POST', gamePaths.scores, {
      body: scoreBody(run, 'Fourth'),
      csrf: false,
    });
    expect(res.statusCode, res.body).toBe(201);
    await echoed;
    const fourth = res.json<{ entry: { id: number; score: number } }>().entry;
    expect(fourth.score).toBeLessThan(4000);
    expect(await board(visitor, 50)).toEqual([first, third, second, fourth.id, hidden]);
    expect(await board(visitor, 2)).toEqual([first, third]);
    const fifth = await elsewhere('Fifth', 4800);
    expect(await board(visitor, 2)).toEqual([first, third]);
    t.clock.advance(1001);
    await board(visitor, 2);
    await expect.poll(() => board(visitor, 2)).toEqual([first, fifth]);
  });

  it('lets a proxy keep the answer as long as a node does, and browsers ask each time', async () => {
    const res = await TestClient.inject(t.app).request('GET', `${gamePaths.leaderboard}?limit=3`);
    expect(res.headers['cache-control']).toBe('public, max-age=0, s-maxage=1');
  });
});
