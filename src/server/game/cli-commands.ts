import { PLAYER_NAME_MAX } from '#shared/api/game.ts';
import { simulate } from '#shared/game/simulate.ts';
import { isoWeekId } from '#shared/time.ts';
import {
  limitOption,
  parseOptions,
  positionals,
  utc,
  weekOption,
  type CliCommand,
  type CliContext,
} from '../cli-command.ts';
import { findRuns, weekStandings, type StandingRow } from './repository.ts';

/** What the game's operator commands use of the admin context. */
export type GameCliContext = Pick<CliContext, 'db' | 'site' | 'clock' | 'print'>;

const DEFAULT_STANDINGS = 10;

export type ReplayVerdict = { ok: true } | { ok: false; reason: string };

/** Replays a stored run from its seed and jump log and compares it with the stored entry. */
export function verifyStanding(
  row: StandingRow,
  run: { seed: number; inputs: readonly number[] | null } | undefined,
): ReplayVerdict {
  if (!run || run.inputs === null) return { ok: false, reason: 'no stored jump log' };
  const result = simulate(run.seed, run.inputs);
  if (!result.ok) return { ok: false, reason: result.message };
  const mismatches = [
    result.score !== row.score && `score ${result.score}`,
    result.level !== row.level && `level ${result.level}`,
    result.tasksCompleted !== row.tasks_completed && `tasks ${result.tasksCompleted}`,
    result.powerUpsCollected !== row.power_ups_collected && `power-ups ${result.powerUpsCollected}`,
    result.gameTime !== row.game_time && `time ${result.gameTime}s`,
  ].filter((x): x is string => typeof x === 'string');
  return mismatches.length === 0
    ? { ok: true }
    : { ok: false, reason: `replay gives ${mismatches.join(', ')}` };
}

function pad(value: string | number, width: number, right = false): string {
  const text = String(value);
  return right ? text.padStart(width) : text.padEnd(width);
}

export const leaderboardWeekCommand: CliCommand<GameCliContext> = {
  usage: 'leaderboard:week [--week 2026-W47] [--limit 10]',
  summary: "A week's standings (best entry per player), each run re-verified by replay.",
  async run(ctx, args) {
    const { values, positionals: rest } = parseOptions(args, ['week', 'limit']);
    positionals(rest, []);
    const week = weekOption(values.week, isoWeekId(ctx.clock.now()));
    const limit = limitOption(values.limit, DEFAULT_STANDINGS, 1000);
    const rows = await weekStandings(ctx.db, week.start, limit);
    const runs = await findRuns(
      ctx.db,
      rows.map((r) => r.run_id),
    );
    const runById = new Map(runs.map((r) => [r.id, r]));

    const open = ctx.clock.now() < week.end;
    ctx.print(
      `Leaderboard ${week.id}: ${utc(week.start)} to ${utc(week.end)} UTC${open ? ' (still open)' : ''}`,
    );
    if (rows.length === 0) {
      ctx.print('No scores this week.');
      return 0;
    }
    ctx.print(
      `${pad('#', 3, true)}  ${pad('Player', PLAYER_NAME_MAX)}  ${pad('Score', 7, true)}  ${pad('Level', 5, true)}  ${pad('Time', 6, true)}  ${pad('Submitted (UTC)', 19)}  Replay`,
    );
    let allVerified = true;
    rows.forEach((row, index) => {
      const verdict = verifyStanding(row, runById.get(row.run_id));
      if (!verdict.ok) allVerified = false;
      const minutes = Math.floor(row.game_time / 60);
      const time = `${minutes}:${String(row.game_time % 60).padStart(2, '0')}`;
      ctx.print(
        `${pad(index + 1, 3, true)}  ${pad(row.player_name, PLAYER_NAME_MAX)}  ${pad(row.score, 7, true)}  ${pad(row.level, 5, true)}  ${pad(time, 6, true)}  ${utc(row.created_at)}  ${verdict.ok ? 'verified' : `MISMATCH (${verdict.reason})`}`,
      );
    });
    const top = rows[0]!;
    const topVerdict = verifyStanding(top, runById.get(top.run_id));
    ctx.print('');
    if (topVerdict.ok) {
      ctx.print(
        `${open ? 'Leading' : 'Top score'}: ${top.player_name} with ${top.score}${top.user_id === null ? ' (visitor: not payable)' : ` (member #${top.user_id})`}.`,
      );
      if (!open) {
        ctx.print(
          `To pay the ${ctx.site.weeklyChallenge.prize} prize: npm run admin -- prize:review --week ${week.id}`,
        );
      }
    } else {
      ctx.print(`The top run does not replay (${topVerdict.reason}): do not pay it.`);
    }
    return allVerified ? 0 : 1;
  },
};

/** The game's operator commands, by name, for the CLI's registry. */
export const gameCliCommands: Record<string, CliCommand<GameCliContext>> = {
  'leaderboard:week': leaderboardWeekCommand,
};
