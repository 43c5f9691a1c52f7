// The data a busy site has before the load starts, written straight into the tables in large
// batches: memes, and a week of leaderboard entries for the standings query to rank.
import type { Kysely } from 'kysely';
import type { Database } from '#server/db/database.ts';
import { playHonestly } from '#test-support/honest-run.ts';
import { insertWeekEntries, memeRow } from '../seed-rows.ts';

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
  for (let offset = 0; offset < count; offset += 500) {
    await db
      .insertInto('memes')
      .values(
        Array.from({ length: Math.min(500, count - offset) }, (_, j) => {
          const i = offset + j;
          return memeRow(i, {
            user_id: user.id,
            title: `Benchmark meme number ${i + 1} about the daily grind`,
            created_at: now - (count - i) * 60_000,
          });
        }),
      )
      .execute();
  }
}

/** This week's entries, each with the verified run it came from, by visitors. */
async function seedScores(db: Kysely<Database>, count: number): Promise<void> {
  const now = Date.now();
  const plays = Array.from({ length: RUN_SEEDS }, (_, i) =>
    playHonestly('', ((i + 1) * 2654435761) >>> 0, 60),
  );
  for (let offset = 0; offset < count; offset += 500) {
    const batch = Array.from({ length: Math.min(500, count - offset) }, (_, j) => {
      const index = offset + j;
      const name = `seeded_player_${index % SEED_PLAYERS}`;
      return {
        index,
        play: plays[index % plays.length]!,
        userId: null,
        playerKey: `n:${name}`,
        playerName: name,
        score: (index * 7919) % 5000,
      };
    });
    await insertWeekEntries(db, now, batch);
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
