import type { LeaderboardEntry, ReplayResponse } from '#shared/api/game.ts';
import { machineSigns } from '#shared/game/run-statistics.ts';
import { weekStartUtc } from '#shared/time.ts';
import type { AppDeps } from '../deps.ts';
import { holderTiers } from '../holders/service.ts';
import { HttpError } from '../http-error.ts';
import { findEntryReplay, runJumps, runStatisticsByRunId, weekStandings } from './repository.ts';

// The week's board and the public replay of an entry on it.

export function toEntry(row: {
  id: number;
  player_name: string;
  score: number;
  level: number;
  tasks_completed: number;
  created_at: number;
}): LeaderboardEntry {
  return {
    id: row.id,
    playerName: row.player_name,
    score: row.score,
    level: row.level,
    tasksCompleted: row.tasks_completed,
    createdAt: new Date(row.created_at).toISOString(),
  };
}

/**
 * The week's board. A member's entry says so (its name leads to their page) and carries the
 * holder tier their wallet holds now (docs/decisions/029-holders-at-home.md).
 */
export async function leaderboard(deps: AppDeps, limit: number): Promise<LeaderboardEntry[]> {
  const rows = await weekStandings(deps.db, weekStartUtc(deps.clock.now()), limit);
  const members = rows.flatMap((row) => (row.user_id === null ? [] : [row.user_id]));
  const tiers = await holderTiers(deps.db, members);
  return rows.map((row) => {
    const entry = toEntry(row);
    if (row.user_id === null) return entry;
    const tier = tiers.get(row.user_id);
    return tier ? { ...entry, member: true, holder: tier } : { ...entry, member: true };
  });
}

/** The public replay of a leaderboard entry: only ranked runs have entries. */
export async function entryReplay(deps: AppDeps, entryId: number): Promise<ReplayResponse> {
  const row = await findEntryReplay(deps.db, entryId);
  if (!row || row.steps === null) {
    throw new HttpError(404, 'There is no leaderboard entry with this id.', 'ENTRY_UNKNOWN');
  }
  const statistics = (await runStatisticsByRunId(deps.db, [row.run_id])).get(row.run_id) ?? null;
  const disqualification = await deps.db
    .selectFrom('run_disqualifications')
    .select('reason')
    .where('run_id', '=', row.run_id)
    .executeTakeFirst();
  return {
    entryId: row.entry_id,
    disqualified: disqualification?.reason ?? null,
    playerName: row.player_name,
    character: row.character_key,
    seed: row.seed,
    inputs: await runJumps(deps.db, row.run_id),
    score: row.score,
    level: row.level,
    steps: row.steps,
    coins: row.coins ?? 0,
    obstaclesPassed: row.obstacles_passed ?? 0,
    gameTime: row.game_time,
    createdAt: new Date(row.created_at).toISOString(),
    statistics,
    signs: statistics ? machineSigns(statistics) : [],
  };
}
