// The data a busy site has before the load starts, written straight into the tables in large
// batches: memes, and a week of leaderboard entries for the standings query to rank.
import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import { MEME_CATEGORY_VALUES } from '#shared/categories.ts';
import { weekStartUtc } from '#shared/time.ts';
import type { Database } from '#server/db/database.ts';
import { playHonestly } from '#test-support/honest-run.ts';

export const SEED_MEMES = 2_000;
export const SEED_SCORES = 20_000;
const SEED_PLAYERS = 2_000;
/** Distinct seeds the entries' runs were played on; each run still has its own id. */
const RUN_SEEDS = 64;

/**
 * A `bench` member of a month's standing and `count` memes by them, one a minute up to now (the
 * images are not stored: the benchmark reads pages, not files). A new account's hour of posts
 * would put the site in raid mode (decision 027), and visitors' votes would be refused.
 */
async function seedMemes(db: Kysely<Database>, count: number): Promise<void> {
  const now = Date.now();
  const user = await db
    .insertInto('users')
    .values({
      username: 'bench',
      username_lower: 'bench',
      password_hash: 'x',
      created_at: now - 30 * 86_400_000,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  const hex = (i: number) => i.toString(16).padStart(64, '0');
  for (let offset = 0; offset < count; offset += 500) {
    await db
      .insertInto('memes')
      .values(
        Array.from({ length: Math.min(500, count - offset) }, (_, j) => {
          const i = offset + j;
          return {
            user_id: user.id,
            title: `Benchmark meme number ${i + 1} about the daily grind`,
            category: MEME_CATEGORY_VALUES[i % MEME_CATEGORY_VALUES.length]!,
            image_key: `memes/${hex(i + 1)}.jpg`,
            thumbnail_key: `memes/${hex(i + 1)}-thumb.webp`,
            thumbnail_width: 400,
            thumbnail_height: 300,
            created_at: now - (count - i) * 60_000,
          };
        }),
      )
      .execute();
  }
}

/** This week's entries, each with the verified run it came from. */
async function seedScores(db: Kysely<Database>, count: number): Promise<void> {
  const now = Date.now();
  const plays = Array.from({ length: RUN_SEEDS }, (_, i) =>
    playHonestly('', ((i + 1) * 2654435761) >>> 0, 60),
  );
  const week = weekStartUtc(now);
  for (let offset = 0; offset < count; offset += 500) {
    const batch = Array.from({ length: Math.min(500, count - offset) }, (_, j) => {
      const i = offset + j;
      return { id: randomBytes(16).toString('base64url'), i, play: plays[i % plays.length]! };
    });
    await db
      .insertInto('game_runs')
      .values(
        batch.map(({ id, play }) => ({
          id,
          seed: play.seed,
          user_id: null,
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
    // A verified run's jump log: one chunk from step 0 (migration 013).
    const logs = batch
      .filter(({ play }) => play.inputs.length > 0)
      .map(({ id, play }) => ({ run_id: id, first_step: 0, jumps: play.inputs.join(',') }));
    if (logs.length > 0) await db.insertInto('run_jumps').values(logs).execute();
    await db
      .insertInto('game_scores')
      .values(
        batch.map(({ id, i }) => {
          const score = (i * 7919) % 5000;
          return {
            run_id: id,
            user_id: null,
            player_key: `n:seeded_player_${i % SEED_PLAYERS}`,
            player_name: `seeded_player_${i % SEED_PLAYERS}`,
            score,
            level: 1 + Math.floor(score / 100),
            tasks_completed: score,
            power_ups_collected: 0,
            game_time: 60,
            week_start: week,
            created_at: Math.max(week, now - 3_500_000) + i,
          };
        }),
      )
      .execute();
  }
}

export async function seed(db: Kysely<Database>): Promise<void> {
  await seedMemes(db, SEED_MEMES);
  await seedScores(db, SEED_SCORES);
}

export async function countRows(
  db: Kysely<Database>,
  table: 'game_scores' | 'meme_votes',
): Promise<number> {
  const row = await db
    .selectFrom(table)
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}
