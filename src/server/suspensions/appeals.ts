import type { Kysely } from 'kysely';
import type { AppealEntry } from '#shared/api/console/queue.ts';
import type { AppealDecisionNotice } from '#shared/api/appeals.ts';
import type { Database } from '../db/database.ts';
import { isUniqueViolation } from '../db/errors.ts';
import { HttpError, notFound } from '../http-error.ts';
import { recordDecision } from '../db/operator-log.ts';
import { refuseUnlessOutranksMember, type RankedOperator } from '../accounts/rank.ts';
import { activeSuspension, isActive } from './suspensions.ts';
import { allowanceOf, APPEAL_ORDER } from '#shared/standing.ts';
import { standingsOf } from '../memes/standing.ts';

/**
 * Appeals (decision 022): a suspended member appeals their current suspension once; a moderator
 * upholds or lifts it (console or CLI, through `decideAppeal`); the member is told the decision
 * on their next session read until they say they have seen it. This module owns `appeals`.
 */

const APPEALED = 'You have already appealed this suspension; a moderator will decide on it.';

/** Files the member's appeal of their current suspension. */
export async function fileAppeal(
  db: Kysely<Database>,
  member: { id: number },
  text: string,
  now: number,
): Promise<{ id: number; createdAt: number }> {
  try {
    return await db.transaction().execute(async (trx) => {
      const suspension = await activeSuspension(trx, member.id, now);
      if (!suspension) {
        throw new HttpError(
          409,
          'Your account is not suspended: there is nothing to appeal.',
          'NOT_SUSPENDED',
        );
      }
      const earlier = await trx
        .selectFrom('appeals')
        .select('id')
        .where('suspension_id', '=', suspension.id)
        .executeTakeFirst();
      if (earlier) throw new HttpError(409, APPEALED, 'APPEAL_EXISTS');
      const { id } = await trx
        .insertInto('appeals')
        .values({
          suspension_id: suspension.id,
          user_id: member.id,
          text,
          created_at: now,
          decision: null,
          decision_note: null,
          decided_at: null,
          decided_by: null,
          told_at: null,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      return { id, createdAt: now };
    });
  } catch (error) {
    // Two appeals sent at once: the unique suspension_id lets one in.
    if (isUniqueViolation(error)) throw new HttpError(409, APPEALED, 'APPEAL_EXISTS');
    throw error;
  }
}

/** The member's current suspension and their appeal of it, if they filed one. */
export async function currentAppeal(
  db: Kysely<Database>,
  memberId: number,
  now: number,
): Promise<{
  suspension: { reason: string; endsAt: number | null } | null;
  appeal: { id: number; createdAt: number } | null;
}> {
  const suspension = await activeSuspension(db, memberId, now);
  if (!suspension) return { suspension: null, appeal: null };
  const appeal = await db
    .selectFrom('appeals')
    .select(['id', 'created_at'])
    .where('suspension_id', '=', suspension.id)
    .executeTakeFirst();
  return {
    suspension: { reason: suspension.reason, endsAt: suspension.ends_at },
    appeal: appeal ? { id: appeal.id, createdAt: appeal.created_at } : null,
  };
}

type Db = Kysely<Database>;

function appealsQuery(db: Db) {
  return db
    .selectFrom('appeals')
    .innerJoin('suspensions', 'suspensions.id', 'appeals.suspension_id')
    .innerJoin('users', 'users.id', 'appeals.user_id')
    .select([
      'appeals.id',
      'appeals.text',
      'appeals.created_at',
      'appeals.decision',
      'appeals.decided_at',
      'appeals.user_id',
      'users.username',
      'suspensions.id as suspension_id',
      'suspensions.reason as suspension_reason',
      'suspensions.ends_at',
      'suspensions.lifted_at',
    ]);
}

type AppealRow = Awaited<ReturnType<ReturnType<typeof appealsQuery>['executeTakeFirstOrThrow']>>;

const toEntry = (row: AppealRow): AppealEntry => ({
  id: row.id,
  member: row.username,
  text: row.text,
  createdAt: row.created_at,
  suspension: {
    id: row.suspension_id,
    reason: row.suspension_reason,
    endsAt: row.ends_at,
    liftedAt: row.lifted_at,
  },
  decision: row.decision,
  decidedAt: row.decided_at,
});

/** Appeals read to order by standing: far more than a queue shows, bounded all the same. */
const APPEALS_READ = 1000;

/**
 * Appeals waiting for a decision, at most `limit`: by the appellant's standing (trusted first,
 * new accounts last, src/shared/standing.ts), so a raid's suspended throwaways do not bury a
 * member's appeal; within a place, oldest first (first come, first heard).
 */
export async function openAppeals(db: Db, limit: number, now: number): Promise<AppealEntry[]> {
  const rows = await appealsQuery(db)
    .where('appeals.decided_at', 'is', null)
    .orderBy('appeals.created_at')
    .orderBy('appeals.id')
    .limit(APPEALS_READ)
    .execute();
  const standings = await standingsOf(
    db,
    rows.map((r) => r.user_id),
    now,
  );
  const place = (userId: number) => {
    const standing = standings.get(userId);
    return standing ? APPEAL_ORDER[allowanceOf(standing).appeals] : APPEAL_ORDER.last;
  };
  // Array sort is stable: each place keeps the oldest-first order.
  return rows
    .sort((a, b) => place(a.user_id) - place(b.user_id))
    .slice(0, limit)
    .map(toEntry);
}

/**
 * Upholds or lifts an appealed suspension, with a reason the log keeps and the member is told.
 * Lifting ends that suspension (if it still holds). The decision, the lift and the log row are one
 * transaction; a second decision on the same appeal is 409 APPEAL_DECIDED.
 */
export async function decideAppeal(
  db: Db,
  operator: RankedOperator,
  appealId: number,
  verdict: 'uphold' | 'lift',
  reason: string,
  now: number,
): Promise<AppealEntry> {
  return db.transaction().execute(async (trx) => {
    const appeal = await appealsQuery(trx).where('appeals.id', '=', appealId).executeTakeFirst();
    if (!appeal) throw notFound('No such appeal.');
    await refuseUnlessOutranksMember(trx, operator, appeal.user_id);
    const decision = verdict === 'lift' ? 'lifted' : 'upheld';
    // Only an undecided appeal is decided: the guard is in the update, so two operators at once
    // cannot both decide it.
    const updated = await trx
      .updateTable('appeals')
      .set({ decision, decision_note: reason, decided_at: now, decided_by: operator.id })
      .where('id', '=', appealId)
      .where('decided_at', 'is', null)
      .executeTakeFirst();
    if (Number(updated.numUpdatedRows) === 0) {
      throw new HttpError(409, 'This appeal has already been decided.', 'APPEAL_DECIDED');
    }
    let liftedAt = appeal.lifted_at;
    const holds = isActive({ ends_at: appeal.ends_at, lifted_at: appeal.lifted_at }, now);
    if (verdict === 'lift' && holds) {
      await trx
        .updateTable('suspensions')
        .set({ lifted_at: now, lifted_by: operator.id })
        .where('id', '=', appeal.suspension_id)
        .execute();
      liftedAt = now;
    }
    await recordDecision(
      trx,
      operator,
      {
        kind: verdict === 'lift' ? 'appeal-lift' : 'appeal-uphold',
        targetType: 'member',
        targetId: appeal.user_id,
        targetLabel: appeal.username,
        reason,
        details: {
          appeal: appeal.id,
          suspension: appeal.suspension_id,
          liftedNow: verdict === 'lift' && holds,
        },
      },
      now,
    );
    return toEntry({ ...appeal, decision, decided_at: now, lifted_at: liftedAt });
  });
}

/** The decision on one of the member's appeals they have not been shown yet, if any. */
export async function untoldDecision(
  db: Db,
  memberId: number,
): Promise<AppealDecisionNotice | null> {
  const row = await db
    .selectFrom('appeals')
    .select(['id', 'decision', 'decision_note', 'decided_at'])
    .where('user_id', '=', memberId)
    .where('decided_at', 'is not', null)
    .where('told_at', 'is', null)
    .orderBy('decided_at', 'desc')
    .executeTakeFirst();
  if (!row || row.decision === null || row.decided_at === null) return null;
  return {
    id: row.id,
    decision: row.decision,
    note: row.decision_note ?? '',
    decidedAt: row.decided_at,
  };
}

/** The member has seen the decision on their appeal; 404 for an appeal not theirs or undecided. */
export async function markTold(
  db: Db,
  memberId: number,
  appealId: number,
  now: number,
): Promise<void> {
  const appeal = await db
    .selectFrom('appeals')
    .select(['id', 'told_at'])
    .where('id', '=', appealId)
    .where('user_id', '=', memberId)
    .where('decided_at', 'is not', null)
    .executeTakeFirst();
  if (!appeal) throw notFound('No decided appeal of yours with that id.');
  if (appeal.told_at !== null) return;
  await db
    .updateTable('appeals')
    .set({ told_at: now })
    .where('id', '=', appealId)
    .where('told_at', 'is', null)
    .execute();
}
