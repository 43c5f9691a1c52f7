import { randomBytes } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { suiteApp } from '#test-support/test-app.ts';
import { databaseKinds } from '#test-support/test-database.ts';
import { weekStandings } from './repository.ts';

interface Entry {
  player: number;
  score: number;
  createdAt: number;
}

/** Few players, scores and times, so ties of every kind are common. */
const entry = fc.record({
  player: fc.integer({ min: 0, max: 6 }),
  score: fc.integer({ min: 0, max: 6 }),
  createdAt: fc.integer({ min: 0, max: 2 }),
});
/** One player's many best entries push the others past the first batches. */
const week = fc.record({
  entries: fc.array(entry, { maxLength: 60, size: 'max' }),
  dominant: fc.array(fc.integer({ min: 3, max: 8 }), { maxLength: 120, size: 'max' }),
  limit: fc.integer({ min: 1, max: 10 }),
});

describe.each(databaseKinds)('weekly standings on %s', (kind) => {
  const t = suiteApp(kind);
  let weekStart = 1_000_000;

  /** Stores a week's entries in two statements (one per table); answers their ids in order. */
  async function store(start: number, entries: Entry[]): Promise<number[]> {
    if (entries.length === 0) return [];
    const db = t.app.deps.db;
    const runIds = entries.map(() => randomBytes(12).toString('base64url'));
    await db
      .insertInto('game_runs')
      .values(runIds.map((id) => ({ id, seed: 1, user_id: null, issued_at: 0 })))
      .execute();
    const rows = await db
      .insertInto('game_scores')
      .values(
        entries.map((e, i) => ({
          run_id: runIds[i]!,
          user_id: null,
          player_key: `n:p${e.player}`,
          player_name: `p${e.player}`,
          score: e.score,
          level: 1,
          tasks_completed: e.score,
          power_ups_collected: 0,
          game_time: 1,
          week_start: start,
          created_at: start + e.createdAt,
        })),
      )
      .returning(['id', 'run_id'])
      .execute();
    // Matched by run id: the order RETURNING answers in is not promised.
    const idByRun = new Map(rows.map((row) => [row.run_id, row.id]));
    return runIds.map((runId) => idByRun.get(runId)!);
  }

  it("list each player's best entry once, best first, the earlier entry winning a tie", async () => {
    await fc.assert(
      fc.asyncProperty(week, async ({ entries, dominant, limit }) => {
        weekStart += 1_000;
        const all = [...dominant.map((score) => ({ player: 99, score, createdAt: 0 })), ...entries];
        const ids = await store(weekStart, all);
        // Entries of the weeks around it must not count.
        await store(weekStart - 500, [{ player: 1, score: 100, createdAt: 0 }]);
        await store(weekStart + 500, [{ player: 2, score: 100, createdAt: 0 }]);

        const ordered = all
          .map((e, i) => ({ ...e, id: ids[i]! }))
          .sort((a, b) => b.score - a.score || a.createdAt - b.createdAt || a.id - b.id);
        const seen = new Set<number>();
        const expected = ordered
          .filter((e) => !seen.has(e.player) && seen.add(e.player))
          .slice(0, limit);

        const standings = await weekStandings(t.app.deps.db, weekStart, limit);
        expect(standings.map((s) => s.id)).toEqual(expected.map((e) => e.id));
      }),
      { numRuns: 60 },
    );
  });
});
