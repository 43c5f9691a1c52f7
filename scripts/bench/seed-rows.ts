// The rows both benchmarks seed straight into the tables (bench:load's busy site, bench:page's
// live one), with only the columns every measured tree has, so an older baseline is seeded the
// same way.
import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import { MEME_CATEGORY_VALUES } from '#shared/categories.ts';
import { weekStartUtc } from '#shared/time.ts';
import type { Database } from '#server/db/database.ts';
import type { HonestRun } from '#test-support/honest-run.ts';

/** The object keys of the seeded meme `i`'s picture and thumbnail (i from 0). */
export function memeKeys(i: number): { image: string; thumbnail: string } {
  const hex = (i + 1).toString(16).padStart(64, '0');
  return { image: `memes/${hex}.jpg`, thumbnail: `memes/${hex}-thumb.webp` };
}

/** Seeded meme `i`'s row: its pictures at memeKeys(i), a 400x300 thumbnail, the categories in turn. */
export function memeRow(i: number, row: { user_id: number; title: string; created_at: number }) {
  const keys = memeKeys(i);
  return {
    ...row,
    category: MEME_CATEGORY_VALUES[i % MEME_CATEGORY_VALUES.length]!,
    image_key: keys.image,
    thumbnail_key: keys.thumbnail,
    thumbnail_width: 400,
    thumbnail_height: 300,
  };
}

export interface WeekEntry {
  /** The entry's place in the seed: entries are stored a millisecond apart, in this order. */
  index: number;
  /** The verified run the entry came from. */
  play: HonestRun;
  userId: number | null;
  playerKey: string;
  playerName: string;
  score: number;
}

/**
 * Entries on the board of the week `now` is in, each with the verified run it came from (run an
 * hour before `now`) and that run's jump log: one chunk from step 0 (migration 013).
 */
export async function insertWeekEntries(
  db: Kysely<Database>,
  now: number,
  entries: readonly WeekEntry[],
): Promise<void> {
  const week = weekStartUtc(now);
  const runs = entries.map((entry) => ({ ...entry, runId: randomBytes(16).toString('base64url') }));
  await db
    .insertInto('game_runs')
    .values(
      runs.map(({ runId, play, userId }) => ({
        id: runId,
        seed: play.seed,
        user_id: userId,
        issued_at: now - 3_600_000,
        verified_at: now - 3_500_000,
        jump_count: play.inputs.length,
        steps: play.result.steps,
        score: play.result.score,
        coins: play.result.coins,
        obstacles_passed: 0,
        score_submitted_at: now - 3_500_000,
      })),
    )
    .execute();
  const logs = runs
    .filter(({ play }) => play.inputs.length > 0)
    .map(({ runId, play }) => ({ run_id: runId, first_step: 0, jumps: play.inputs.join(',') }));
  if (logs.length > 0) await db.insertInto('run_jumps').values(logs).execute();
  await db
    .insertInto('game_scores')
    .values(
      runs.map(({ runId, index, userId, playerKey, playerName, score }) => ({
        run_id: runId,
        user_id: userId,
        player_key: playerKey,
        player_name: playerName,
        score,
        level: 1 + Math.floor(score / 100),
        tasks_completed: score,
        power_ups_collected: 0,
        game_time: 60,
        week_start: week,
        created_at: Math.max(week, now - 3_500_000) + index,
      })),
    )
    .execute();
}
