import { sql, type Transaction } from 'kysely';
import type { Database } from '../db/database.ts';
import { memberVoter } from './voter.ts';

/**
 * A suspension's clean-up (issue 43, docs/decisions/027-raid-day.md): every meme the member has
 * up is hidden, their votes are taken off the counts and their open reports withdrawn, each
 * written down in `suspension_cleanups`, so lifting the suspension with restore puts back exactly
 * what this took (a meme hidden since by a moderator, or deleted, stays as it is). Both run in the
 * suspension's (or the lift's) own transaction.
 */
export interface Cleaned {
  memes: number;
  votes: number;
  reports: number;
}

export async function cleanUpMember(
  trx: Transaction<Database>,
  suspensionId: number,
  userId: number,
  now: number,
): Promise<Cleaned & { memeIds: number[] }> {
  const voter = memberVoter(userId);
  const memes = await trx
    .updateTable('memes')
    .set({ hidden: 1 })
    .where('user_id', '=', userId)
    .where('hidden', '=', 0)
    .returning('id')
    .execute();
  const votes = await trx
    .deleteFrom('meme_votes')
    .where('voter', '=', voter)
    .returning(['meme_id', 'vote_type'])
    .execute();
  for (const vote of votes) {
    await trx
      .updateTable('memes')
      .set(
        vote.vote_type === 'up' ? { upvotes: sql`upvotes - 1` } : { downvotes: sql`downvotes - 1` },
      )
      .where('id', '=', vote.meme_id)
      .execute();
  }
  const reports = await trx
    .deleteFrom('meme_reports')
    .where('reporter', '=', voter)
    .where('decision_id', 'is', null)
    .returning(['meme_id', 'reason', 'reporter_identity', 'counts_to_hide'])
    .execute();
  const rows = [
    ...memes.map((m) => ({ kind: 'meme' as const, meme_id: m.id })),
    ...votes.map((v) => ({ kind: 'vote' as const, meme_id: v.meme_id, vote_type: v.vote_type })),
    ...reports.map((r) => ({
      kind: 'report' as const,
      meme_id: r.meme_id,
      reason: r.reason,
      reporter_identity: r.reporter_identity,
      counts_to_hide: r.counts_to_hide,
    })),
  ];
  for (let i = 0; i < rows.length; i += 500) {
    await trx
      .insertInto('suspension_cleanups')
      .values(
        rows.slice(i, i + 500).map((row) => ({
          vote_type: null,
          voter: null,
          reporter_identity: null,
          counts_to_hide: null,
          reason: null,
          ...row,
          suspension_id: suspensionId,
          created_at: now,
          restored_at: null,
        })),
      )
      .execute();
  }
  return {
    memes: memes.length,
    votes: votes.length,
    reports: reports.length,
    memeIds: memes.map((m) => m.id),
  };
}

/** Puts back what the suspensions' clean-ups took and is still there to put back. */
export async function restoreCleanUp(
  trx: Transaction<Database>,
  suspensionIds: number[],
  userId: number,
  now: number,
): Promise<Cleaned & { memeIds: number[] }> {
  const restored = { memes: 0, votes: 0, reports: 0, memeIds: [] as number[] };
  if (suspensionIds.length === 0) return restored;
  const voter = memberVoter(userId);
  const items = await trx
    .selectFrom('suspension_cleanups')
    .selectAll()
    .where('suspension_id', 'in', suspensionIds)
    .where('restored_at', 'is', null)
    .execute();
  for (const item of items) {
    if (item.kind === 'meme') {
      // Only a meme still hidden by nobody else's decision: not held, no decision since.
      const shown = await trx
        .updateTable('memes')
        .set({ hidden: 0 })
        .where('id', '=', item.meme_id)
        .where('hidden', '=', 1)
        .where('held', '=', 0)
        .where((eb) =>
          eb.not(
            eb.exists(
              eb
                .selectFrom('meme_decisions')
                .select('meme_decisions.id')
                .whereRef('meme_decisions.meme_id', '=', 'memes.id')
                .where('meme_decisions.decided_at', '>', item.created_at),
            ),
          ),
        )
        .executeTakeFirst();
      if (Number(shown.numUpdatedRows) > 0) {
        restored.memes++;
        restored.memeIds.push(item.meme_id);
      }
    } else if (item.kind === 'vote' && item.vote_type) {
      const inserted = await trx
        .insertInto('meme_votes')
        .columns(['meme_id', 'voter', 'vote_type', 'created_at', 'network'])
        .expression((eb) =>
          eb
            .selectFrom('memes')
            .select([
              'memes.id',
              sql<string>`${voter}`.as('voter'),
              sql<'up' | 'down'>`${item.vote_type}`.as('vote_type'),
              sql<number>`${now}`.as('created_at'),
              sql<null>`null`.as('network'),
            ])
            .where('memes.id', '=', item.meme_id),
        )
        .onConflict((oc) => oc.columns(['meme_id', 'voter']).doNothing())
        .executeTakeFirst();
      if (Number(inserted.numInsertedOrUpdatedRows ?? 0n) > 0) {
        await trx
          .updateTable('memes')
          .set(
            item.vote_type === 'up'
              ? { upvotes: sql`upvotes + 1` }
              : { downvotes: sql`downvotes + 1` },
          )
          .where('id', '=', item.meme_id)
          .execute();
        restored.votes++;
      }
    } else if (item.kind === 'report') {
      const inserted = await trx
        .insertInto('meme_reports')
        .columns([
          'meme_id',
          'reporter',
          'reporter_identity',
          'counts_to_hide',
          'reason',
          'created_at',
          'decision_id',
        ])
        .expression((eb) =>
          eb
            .selectFrom('memes')
            .select([
              'memes.id',
              sql<string>`${voter}`.as('reporter'),
              sql<string>`${item.reporter_identity ?? voter}`.as('reporter_identity'),
              sql<number>`${item.counts_to_hide ?? 0}`.as('counts_to_hide'),
              sql<string>`${item.reason ?? 'other'}`.as('reason'),
              sql<number>`${now}`.as('created_at'),
              sql<null>`null`.as('decision_id'),
            ])
            .where('memes.id', '=', item.meme_id),
        )
        .onConflict((oc) => oc.columns(['meme_id', 'reporter']).doNothing())
        .executeTakeFirst();
      if (Number(inserted.numInsertedOrUpdatedRows ?? 0n) > 0) restored.reports++;
    }
  }
  await trx
    .updateTable('suspension_cleanups')
    .set({ restored_at: now })
    .where('suspension_id', 'in', suspensionIds)
    .where('restored_at', 'is', null)
    .execute();
  return restored;
}
