import { describe, expect, it } from 'vitest';
import { simulate } from '#shared/game/simulate.ts';
import { suiteApp, uniqueName } from '#test-support/test-app.ts';
import { TestClient } from '#test-support/test-client.ts';
import { databaseKinds } from '#test-support/test-database.ts';
import { play, scoreBody } from '#test-support/test-play.ts';
import { gamePaths } from '#shared/api/paths.ts';

// Issue 19, finding 2: a refused run was replayed in full every time it was sent, because the
// outcome was kept only when the claimed figures matched. Each run is now verified once and its
// outcome (accepted figures or refusal) stored: sending it again gets the stored answer. These
// tests use only what the code before the fix (3f56bd3) also had, and fail there.

describe.each(databaseKinds)('a run is verified once on %s', (kind) => {
  const t = suiteApp(kind);

  it('answers a refused run with its stored refusal, even once it could be played', async () => {
    const visitor = TestClient.inject(t.app);
    const run = await play(visitor, 600);
    const body = scoreBody(run, uniqueName('Early'));
    const first = await visitor.request('POST', gamePaths.scores, { body });
    expect(first.statusCode, first.body).toBe(422);
    // Long enough for the run to have been played: before the fix, this replayed it again.
    t.clock.advance(60_000);
    const again = await visitor.request('POST', gamePaths.scores, { body });
    expect(again.statusCode, again.body).toBe(422);
    expect(again.json()).toEqual(first.json());
  });

  it('keeps the replay of a run sent with wrong figures: another jump log is not replayed', async () => {
    const visitor = TestClient.inject(t.app);
    const run = await play(visitor, 600);
    // Short runs (no jump: a fall of about 25 steps; one jump: a little longer) need no progress
    // report beyond the round's last second.
    const fall = simulate(run.seed, []);
    const hop = simulate(run.seed, [0]);
    if (!fall.ok || !hop.ok) throw new Error('short runs did not replay');
    expect(hop.steps).toBeLessThanOrEqual(60);
    t.clock.advance(10_000);
    const name = uniqueName('Wrong');
    const wrong = await visitor.request('POST', gamePaths.scores, {
      body: { ...scoreBody(run, name), inputs: [], score: fall.score + 7 },
    });
    expect(wrong.statusCode, wrong.body).toBe(422);
    expect(wrong.json<{ message: string }>().message).toMatch(/do not match the replay/);
    // Before the fix this second log was replayed afresh (and accepted).
    const other = await visitor.request('POST', gamePaths.scores, {
      body: {
        ...scoreBody(run, name),
        inputs: [0],
        score: hop.score,
        level: hop.level,
        tasksCompleted: hop.tasksCompleted,
        gameTime: hop.gameTime,
      },
    });
    expect(other.statusCode, other.body).toBe(422);
    expect(other.json()).toMatchObject({ code: 'RUN_MISMATCH' });
    // The stored outcome still takes the log it came from, with the right figures.
    const right = await visitor.request('POST', gamePaths.scores, {
      body: {
        ...scoreBody(run, name),
        inputs: [],
        score: fall.score,
        level: fall.level,
        tasksCompleted: fall.tasksCompleted,
        gameTime: fall.gameTime,
      },
    });
    expect(right.statusCode, right.body).toBe(201);
  });
});
