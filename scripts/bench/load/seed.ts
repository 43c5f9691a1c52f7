import type { Kysely } from 'kysely';
import { MEME_CATEGORY_VALUES } from '#shared/categories.ts';
import type { Database } from '#server/db/database.ts';

/**
 * A `bench` member and `count` memes by them, one a minute up to now, written straight into
 * the table in large batches (the images are not stored: the benchmarks read pages, not files).
 */
export async function seedBenchMemes(db: Kysely<Database>, count: number): Promise<void> {
  const now = Date.now();
  const user = await db
    .insertInto('users')
    .values({ username: 'bench', username_lower: 'bench', password_hash: 'x', created_at: now })
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
