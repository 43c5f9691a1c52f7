import { sql, type Kysely } from 'kysely';
import sharp from 'sharp';
import { MEME_IMAGE_MAX_BYTES } from '#shared/api/memes.ts';
import type { Database } from '#server/db/database.ts';
import { readSnapshot } from '#server/db/read-snapshot.ts';
import { findCountMismatches, findNetworkCapOverruns } from '#server/memes/repository.ts';
import { VISITOR_VOTES_PER_NETWORK } from '#server/memes/vote-rules.ts';
import type { ObjectStore } from '#server/storage/object-store.ts';

/**
 * What must hold in the stored data whatever happened to the process that wrote it (a crash
 * mid-request included): each rule is one line in the answer when it is broken. Read-only.
 */
export async function findInvariantViolations(
  db: Kysely<Database>,
  store: ObjectStore,
): Promise<string[]> {
  // The rows are read in one snapshot: the site may be writing meanwhile (a purchase between
  // the balances and the ledger would look like a broken sum). The objects are checked after.
  const { problems, images } = await readSnapshot(db, (trx) => findRowViolations(trx));
  for (const { what, keys } of images) {
    for (const key of keys) {
      const problem = await objectProblem(store, key);
      if (problem) problems.push(`${what}: ${key} ${problem}`);
    }
  }
  return problems;
}

async function findRowViolations(db: Kysely<Database>) {
  const problems: string[] = [];

  for (const m of await findCountMismatches(db)) {
    problems.push(
      `meme ${m.id}: counts ${m.upvotes} up / ${m.downvotes} down, votes stored ${m.stored_up} / ${m.stored_down}`,
    );
  }
  for (const o of await findNetworkCapOverruns(db)) {
    problems.push(
      `meme ${o.memeId}: ${o.votes} visitor votes from one network (at most ${VISITOR_VOTES_PER_NETWORK})`,
    );
  }

  // Balance = sum of the ledger >= 0, and each ledger row's balance_after is the running sum.
  const users = await db.selectFrom('users').select(['id', 'coins']).execute();
  const ledger = await db
    .selectFrom('coin_ledger')
    .select(['id', 'user_id', 'delta', 'balance_after', 'reason', 'run_id', 'character_key'])
    .orderBy('id')
    .execute();
  const running = new Map<number, number>();
  for (const row of ledger) {
    const sum = (running.get(row.user_id) ?? 0) + row.delta;
    running.set(row.user_id, sum);
    if (row.balance_after !== sum) {
      problems.push(
        `ledger row ${row.id}: balance_after ${row.balance_after}, running sum ${sum} (user ${row.user_id})`,
      );
    }
  }
  for (const user of users) {
    const sum = running.get(user.id) ?? 0;
    if (user.coins < 0) problems.push(`user ${user.id}: negative balance ${user.coins}`);
    if (user.coins !== sum)
      problems.push(`user ${user.id}: balance ${user.coins}, ledger sum ${sum}`);
  }

  // A bought character has its debit and a debit its character; a credited run its ledger row.
  const unpaid = await db
    .selectFrom('owned_characters as o')
    .leftJoin('coin_ledger as l', (join) =>
      join
        .onRef('l.user_id', '=', 'o.user_id')
        .onRef('l.character_key', '=', 'o.character_key')
        .on('l.reason', '=', 'purchase'),
    )
    .select(['o.user_id', 'o.character_key'])
    .where('l.id', 'is', null)
    .execute();
  for (const o of unpaid)
    problems.push(`user ${o.user_id} owns ${o.character_key} without a debit`);
  const purchases = ledger.filter((l) => l.reason === 'purchase');
  const owned = new Set(
    (await db.selectFrom('owned_characters').select(['user_id', 'character_key']).execute()).map(
      (o) => `${o.user_id}:${o.character_key}`,
    ),
  );
  const seenPurchases = new Set<string>();
  for (const p of purchases) {
    const key = `${p.user_id}:${p.character_key}`;
    if (!owned.has(key)) problems.push(`ledger row ${p.id}: a debit for ${key} not owned`);
    if (seenPurchases.has(key)) problems.push(`ledger row ${p.id}: ${key} paid twice`);
    seenPurchases.add(key);
  }
  const runCredits = ledger.filter((l) => l.reason === 'game-run');
  const creditedRuns = await db
    .selectFrom('game_runs')
    .select(['id', 'coins_credited'])
    .where('coins_credited_at', 'is not', null)
    .execute();
  const creditByRun = new Map(runCredits.map((l) => [l.run_id, l.delta]));
  for (const run of creditedRuns) {
    if (creditByRun.get(run.id) !== run.coins_credited) {
      problems.push(
        `run ${run.id}: credited ${run.coins_credited}, ledger ${creditByRun.get(run.id)}`,
      );
    }
  }
  if (creditByRun.size !== creditedRuns.length) {
    problems.push(
      `${creditByRun.size} run credits in the ledger, ${creditedRuns.length} runs credited`,
    );
  }

  // A score stands only for a run marked submitted, once.
  const orphanScores = await db
    .selectFrom('game_scores as s')
    .leftJoin('game_runs as r', 'r.id', 's.run_id')
    .select(['s.id', 's.run_id'])
    .where((eb) => eb.or([eb('r.id', 'is', null), eb('r.score_submitted_at', 'is', null)]))
    .execute();
  for (const s of orphanScores)
    problems.push(`score ${s.id}: run ${s.run_id} not marked submitted`);
  const doubled = await db
    .selectFrom('game_scores')
    .select(['run_id', sql<number>`count(*)`.as('n')])
    .groupBy('run_id')
    .having(sql`count(*)`, '>', 1)
    .execute();
  for (const d of doubled) problems.push(`run ${d.run_id}: ${d.n} scores`);

  // Every meme (and every processed image still waiting to be posted) has both its objects,
  // whole: each decodes to the end.
  const images = [
    ...(await db.selectFrom('memes').select(['id', 'image_key', 'thumbnail_key']).execute()).map(
      (m) => ({ what: `meme ${m.id}`, keys: [m.image_key, m.thumbnail_key] }),
    ),
    ...(
      await db.selectFrom('meme_images').select(['id', 'image_key', 'thumbnail_key']).execute()
    ).map((m) => ({ what: `meme image ${m.id}`, keys: [m.image_key, m.thumbnail_key] })),
  ];
  return { problems, images };
}

/** Null when the object is there and decodes completely; else what is wrong with it. */
export async function objectProblem(store: ObjectStore, key: string): Promise<string | null> {
  const bytes = await store.getObjectBuffer(key, MEME_IMAGE_MAX_BYTES);
  if (!bytes) return 'is missing';
  try {
    // stats() decodes every pixel, so a truncated file fails here, not only a bad header.
    await sharp(bytes, { failOn: 'truncated' }).stats();
    return null;
  } catch (error) {
    return `does not decode (${(error as Error).message})`;
  }
}
