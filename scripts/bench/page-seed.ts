// What a live site shows before `npm run bench:page` measures its landing page (issue 44): members,
// a gallery of memes with their pictures in the node's object store and votes on them, and this
// week's board filled past its longest list. Written straight into the tables, with only the
// columns every measured tree has, so an older baseline is seeded the same way.
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Kysely } from 'kysely';
import { LEADERBOARD_MAX_LIMIT } from '#shared/api/game.ts';
import { MEME_CATEGORY_VALUES } from '#shared/categories.ts';
import { weekStartUtc } from '#shared/time.ts';
import type { Database } from '#server/db/database.ts';
import { blockPicture } from '#test-support/gallery.ts';
import { playHonestly } from '#test-support/honest-run.ts';

export const PAGE_SEED = { members: 20, memes: 60, players: LEADERBOARD_MAX_LIMIT + 20 };

/**
 * Seeds the site whose database is `db` and whose local object store is under `dataDir`
 * (`<dataDir>/objects`, as the node's local store keeps them).
 */
export async function seedPage(db: Kysely<Database>, dataDir: string): Promise<void> {
  const now = Date.now();
  const members: { id: number; name: string }[] = [];
  for (let i = 0; i < PAGE_SEED.members; i++) {
    const name = `grinder_${String(i + 1).padStart(2, '0')}`;
    const row = await db
      .insertInto('users')
      .values({
        username: name,
        username_lower: name,
        password_hash: 'x',
        created_at: now - (PAGE_SEED.members - i) * 86_400_000,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    members.push({ id: row.id, name });
  }

  const objects = path.join(dataDir, 'objects');
  const hex = (i: number) => i.toString(16).padStart(64, '0');
  for (let i = 0; i < PAGE_SEED.memes; i++) {
    const imageKey = `memes/${hex(i + 1)}.jpg`;
    const thumbnailKey = `memes/${hex(i + 1)}-thumb.webp`;
    fs.mkdirSync(path.join(objects, 'memes'), { recursive: true });
    fs.writeFileSync(path.join(objects, imageKey), await blockPicture(i + 1, 800, 600, 'jpeg'));
    fs.writeFileSync(path.join(objects, thumbnailKey), await blockPicture(i + 1, 400, 300, 'webp'));
    const author = members[i % members.length]!;
    // Every member votes on every third meme: up, but for every fifth voter.
    const voters = members.filter((_, m) => (m + i) % 3 === 0);
    const votes = voters.map((v, m) => ({ voter: `u:${v.id}`, up: m % 5 !== 4 }));
    const meme = await db
      .insertInto('memes')
      .values({
        user_id: author.id,
        title: `Grind meme ${i + 1}: when the standup could have been an email`,
        category: MEME_CATEGORY_VALUES[i % MEME_CATEGORY_VALUES.length]!,
        image_key: imageKey,
        thumbnail_key: thumbnailKey,
        thumbnail_width: 400,
        thumbnail_height: 300,
        upvotes: votes.filter((v) => v.up).length,
        downvotes: votes.filter((v) => !v.up).length,
        created_at: now - (PAGE_SEED.memes - i) * 3_600_000,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    if (votes.length === 0) continue;
    await db
      .insertInto('meme_votes')
      .values(
        votes.map((v) => ({
          meme_id: meme.id,
          voter: v.voter,
          vote_type: v.up ? ('up' as const) : ('down' as const),
          created_at: now - 60_000,
        })),
      )
      .execute();
  }

  // This week's board: every member and as many visitors again, each with the run it came from.
  const week = weekStartUtc(now);
  const plays = Array.from({ length: 8 }, (_, i) => playHonestly('', (i + 1) * 7919, 60));
  for (let i = 0; i < PAGE_SEED.players; i++) {
    const member = members[i];
    const play = plays[i % plays.length]!;
    const runId = randomBytes(16).toString('base64url');
    await db
      .insertInto('game_runs')
      .values({
        id: runId,
        seed: play.seed,
        user_id: member?.id ?? null,
        issued_at: now - 3_600_000,
        verified_at: now - 3_500_000,
        jump_count: play.inputs.length,
        steps: play.result.steps,
        score: play.result.score,
        coins: play.result.coins,
        obstacles_passed: 0,
        score_submitted_at: now - 3_500_000,
      })
      .execute();
    if (play.inputs.length > 0) {
      await db
        .insertInto('run_jumps')
        .values({ run_id: runId, first_step: 0, jumps: play.inputs.join(',') })
        .execute();
    }
    const name = member?.name ?? `visitor_${i}`;
    const score = 5000 - i * 37;
    await db
      .insertInto('game_scores')
      .values({
        run_id: runId,
        user_id: member?.id ?? null,
        player_key: member ? `u:${member.id}` : `n:${name}`,
        player_name: name,
        score,
        level: 1 + Math.floor(score / 100),
        tasks_completed: score,
        power_ups_collected: 0,
        game_time: 60,
        week_start: week,
        created_at: Math.max(week, now - 3_500_000) + i,
      })
      .execute();
  }
}
