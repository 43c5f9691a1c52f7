// What a live site shows before `npm run bench:page` measures its landing page (issue 44): members,
// a gallery of memes with their pictures in the node's object store and votes on them, and this
// week's board filled past its longest list. Written straight into the tables, with only the
// columns every measured tree has, so an older baseline is seeded the same way.
import fs from 'node:fs';
import path from 'node:path';
import type { Kysely } from 'kysely';
import { LEADERBOARD_MAX_LIMIT } from '#shared/api/game.ts';
import type { Database } from '#server/db/database.ts';
import { blockPicture } from '#test-support/gallery.ts';
import { playHonestly } from '#test-support/honest-run.ts';
import { insertWeekEntries, memeKeys, memeRow } from './seed-rows.ts';

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
  for (let i = 0; i < PAGE_SEED.memes; i++) {
    const keys = memeKeys(i);
    fs.mkdirSync(path.join(objects, 'memes'), { recursive: true });
    fs.writeFileSync(path.join(objects, keys.image), await blockPicture(i + 1, 800, 600, 'jpeg'));
    fs.writeFileSync(
      path.join(objects, keys.thumbnail),
      await blockPicture(i + 1, 400, 300, 'webp'),
    );
    const author = members[i % members.length]!;
    // Every member votes on every third meme: up, but for every fifth voter.
    const voters = members.filter((_, m) => (m + i) % 3 === 0);
    const votes = voters.map((v, m) => ({ voter: `u:${v.id}`, up: m % 5 !== 4 }));
    const meme = await db
      .insertInto('memes')
      .values({
        ...memeRow(i, {
          user_id: author.id,
          title: `Grind meme ${i + 1}: when the standup could have been an email`,
          created_at: now - (PAGE_SEED.memes - i) * 3_600_000,
        }),
        upvotes: votes.filter((v) => v.up).length,
        downvotes: votes.filter((v) => !v.up).length,
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
  const plays = Array.from({ length: 8 }, (_, i) => playHonestly('', (i + 1) * 7919, 60));
  await insertWeekEntries(
    db,
    now,
    Array.from({ length: PAGE_SEED.players }, (_, index) => {
      const member = members[index];
      const name = member?.name ?? `visitor_${index}`;
      return {
        index,
        play: plays[index % plays.length]!,
        userId: member?.id ?? null,
        playerKey: member ? `u:${member.id}` : `n:${name}`,
        playerName: name,
        score: 5000 - index * 37,
      };
    }),
  );
}
