import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WEEK_MS } from '#shared/time.ts';
import { createTestApp, TestClient, uniqueName, type TestApp } from '#test-support/test-app.ts';
import { databaseKinds } from '#test-support/test-database.ts';
import {
  leaderboardWeekCommand,
  winnersAddCommand,
  type GameAdminContext,
} from './admin-commands.ts';
import { UsageError } from '../admin/command.ts';
import { defaultSite } from '#shared/site.ts';
import { play, realTimeMs, scoreBody } from '#test-support/test-play.ts';

describe.each(databaseKinds)('game operator commands on %s', (kind) => {
  let t: TestApp;
  let lines: string[];
  let ctx: GameAdminContext;
  beforeAll(async () => {
    t = await createTestApp(kind);
  });
  afterAll(async () => t?.close());

  function freshContext() {
    lines = [];
    ctx = {
      db: t.app.deps.db,
      site: defaultSite,
      now: () => t.clock.now(),
      print: (line) => lines.push(line),
    };
  }

  async function submit(client: TestClient, name: string, target: number) {
    const run = await play(client, target);
    t.clock.advance(realTimeMs(run));
    const res = await client.request('POST', '/api/game-scores', { body: scoreBody(run, name) });
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
    const visitor = new TestClient(t.app);
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

  it('prints the winner of a closed week with the command to record the payment', async () => {
    freshContext();
    t.clock.advance(WEEK_MS);
    expect(await leaderboardWeekCommand.run(ctx, ['--week', '2026-W47', '--limit', '1'])).toBe(0);
    expect(lines[0]).not.toMatch(/still open/);
    expect(lines.filter((l) => /verified$/.test(l))).toHaveLength(1);
    expect(lines.at(-2)).toMatch(
      /^Winner: (Ann|Ben)_\w+ with \d+ \(visitor: confirm the player before paying\)\.$/,
    );
    expect(lines.at(-1)).toMatch(
      /^After paying 1 SOL: npm run admin -- winners:add --week 2026-W47 --player "(Ann|Ben)_\w+" --tx <explorer URL>$/,
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

  it('records a paid winner once, validating its arguments', async () => {
    freshContext();
    const args = ['--week', '2026-W40', '--player', 'Ann', '--tx', 'https://solscan.io/tx/5abc'];
    expect(await winnersAddCommand.run(ctx, args)).toBe(0);
    expect(lines).toContain('Warning: "Ann" has no score in 2026-W40.');
    expect(lines.at(-1)).toMatch(
      /^Recorded winner #\d+: Ann, 1 SOL, 2026-W40, https:\/\/solscan.io\/tx\/5abc$/,
    );
    freshContext();
    expect(await winnersAddCommand.run(ctx, args)).toBe(1);
    expect(lines.at(-1)).toMatch(/already recorded/);

    // The default prize is the site's weekly prize (SITE_CONFIG), not a constant.
    freshContext();
    ctx.site = {
      ...defaultSite,
      weeklyChallenge: { ...defaultSite.weeklyChallenge, prize: '2 SOL' },
    };
    const week39 = ['--week', '2026-W39', '--player', 'Ann', '--tx', 'https://solscan.io/tx/6d'];
    expect(await winnersAddCommand.run(ctx, week39)).toBe(0);
    expect(lines.at(-1)).toMatch(/^Recorded winner #\d+: Ann, 2 SOL, 2026-W39, /);

    for (const bad of [
      ['--week', '2026-W99', '--player', 'Ann', '--tx', 'https://x.example'],
      ['--week', '2026-W41', '--player', ' ', '--tx', 'https://x.example'],
      ['--week', '2026-W41', '--player', 'x\u001b]0;pwned\u0007', '--tx', 'https://x.example'],
      ['--week', '2026-W41', '--player', 'Ann', '--tx', 'javascript:alert(1)'],
      ['--week', '2026-W41', '--player', 'Ann', '--tx', 'not a url'],
      ['--week', '2026-W41', '--player', 'Ann'],
    ]) {
      await expect(winnersAddCommand.run(ctx, bad)).rejects.toBeInstanceOf(UsageError);
    }
    const winners = await new TestClient(t.app).request('GET', '/api/giveaway-winners');
    expect(winners.json<Array<{ week: string }>>().map((w) => w.week)).toEqual([
      '2026-W39',
      '2026-W40',
    ]);
  });
});
