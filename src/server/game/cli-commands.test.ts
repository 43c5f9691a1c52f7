import { describe, expect, it } from 'vitest';
import { WEEK_MS } from '#shared/time.ts';
import { suiteApp, uniqueName } from '#test-support/test-app.ts';
import { TestClient } from '#test-support/test-client.ts';
import { databaseKinds } from '#test-support/test-database.ts';
import { leaderboardWeekCommand, type GameCliContext } from './cli-commands.ts';
import { UsageError } from '../cli-command.ts';
import { defaultSite } from '#shared/site.ts';
import { play, reportPaced, scoreBody } from '#test-support/test-play.ts';
import { gamePaths } from '#shared/api/paths.ts';

describe.each(databaseKinds)('game operator commands on %s', (kind) => {
  const t = suiteApp(kind);
  let lines: string[];
  let ctx: GameCliContext;

  function freshContext() {
    lines = [];
    ctx = {
      db: t.app.deps.db,
      site: defaultSite,
      clock: t.clock,
      print: (line) => lines.push(line),
    };
  }

  async function submit(client: TestClient, name: string, target: number) {
    const run = await play(client, target);
    await reportPaced(TestClient.inject(t.app), t.clock, run);
    const res = await client.request('POST', gamePaths.scores, { body: scoreBody(run, name) });
    expect(res.statusCode, res.body).toBe(201);
    return { ...run, entry: res.json<{ entry: { id: number; score: number } }>().entry };
  }

  it('prints an empty week', async () => {
    freshContext();
    expect(await leaderboardWeekCommand.run(ctx, ['--week', '2026-W10'])).toBe(0);
    expect(lines[0]).toBe('Leaderboard 2026-W10: 2026-03-02 00:00:00 to 2026-03-09 00:00:00 UTC');
    expect(lines).toContain('No scores this week.');
  });

  it("prints this week's standings with every run re-verified, and flags a tampered one", async () => {
    const visitor = TestClient.inject(t.app);
    const a = await submit(visitor, uniqueName('Ann'), 900);
    const b = await submit(visitor, uniqueName('Ben'), 300);

    freshContext();
    expect(await leaderboardWeekCommand.run(ctx, [])).toBe(0);
    expect(lines[0]).toMatch(/^Leaderboard 2026-W47: .* \(still open\)$/);
    const rows = lines.filter((l) => /verified$/.test(l));
    expect(rows).toHaveLength(2);
    const [first, second] = a.entry.score >= b.entry.score ? [a, b] : [b, a];
    expect(rows[0]).toContain(String(first.entry.score));
    expect(rows[1]).toContain(String(second.entry.score));
    expect(lines.some((l) => l.startsWith('Leading: '))).toBe(true);

    // Someone edits the database to lift the second run's score: the replay disagrees.
    await t.app.deps.db
      .updateTable('game_scores')
      .set({ score: first.entry.score + 1000 })
      .where('id', '=', second.entry.id)
      .execute();
    freshContext();
    expect(await leaderboardWeekCommand.run(ctx, [])).toBe(1);
    expect(lines.find((l) => l.includes('MISMATCH'))).toMatch(/replay gives score \d+/);
    expect(lines.at(-1)).toMatch(/does not replay.*do not pay it/);
    await t.app.deps.db
      .updateTable('game_scores')
      .set({ score: second.entry.score })
      .where('id', '=', second.entry.id)
      .execute();
  });

  it('prints the top score of a closed week with the command that pays the prize', async () => {
    freshContext();
    t.clock.advance(WEEK_MS);
    expect(await leaderboardWeekCommand.run(ctx, ['--week', '2026-W47', '--limit', '1'])).toBe(0);
    expect(lines[0]).not.toMatch(/still open/);
    expect(lines.filter((l) => /verified$/.test(l))).toHaveLength(1);
    expect(lines.at(-2)).toMatch(/^Top score: (Ann|Ben)_\w+ with \d+ \(visitor: not payable\)\.$/);
    expect(lines.at(-1)).toMatch(
      /^To pay the 1 SOL prize: npm run admin -- prize:review --week 2026-W47$/,
    );
    await expect(leaderboardWeekCommand.run(ctx, ['--week', 'W47'])).rejects.toBeInstanceOf(
      UsageError,
    );
    await expect(leaderboardWeekCommand.run(ctx, ['--limit', '0'])).rejects.toBeInstanceOf(
      UsageError,
    );
    freshContext();
    // The current week (2026-W48) is still open and empty.
    expect(await leaderboardWeekCommand.run(ctx, [])).toBe(0);
    expect(lines[0]).toMatch(/^Leaderboard 2026-W48/);
  });
});
