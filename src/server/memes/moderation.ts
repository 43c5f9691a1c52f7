import type { Kysely, Transaction } from 'kysely';
import type { ReportReason } from '#shared/api/memes.ts';
import type { Database } from '../db/database.ts';
import { isPostgres } from '../db/migration-helpers.ts';
import { HttpError, notFound } from '../http-error.ts';
import { memberStanding } from './standing.ts';
import { recordDecision } from '../db/operator-log.ts';
import { refuseUnlessOutranksMember, type RankedOperator } from '../accounts/rank.ts';
import { recordLiveEvent } from '../live/record.ts';
import { recordActivity } from './activity.ts';
import { isObjectReferenced } from './repository.ts';
import { NEW_ACCOUNT_PERIOD_MS } from './upload-slots.ts';

/**
 * Reports from this many distinct networks hide a meme at once, pending the operator's review
 * (`memes:queue`). A network is an IPv4 address or an IPv6 /48 (memes/voter.ts,
 * `networkIdentity`): members and visitors behind one address are one reporter, so one person
 * cannot take a meme down alone with a few accounts or by clearing cookies. Three, as a false
 * report costs an honest meme a few hours out of the gallery, while abuse left up costs more.
 * Only reports that count (`reportCountsToHide`) reach the threshold; every report is queued.
 */
export const REPORTS_TO_HIDE = 3;

/** A member's report counts towards hiding once the account is this old (and has played). */
export const REPORTER_MIN_AGE_MS = NEW_ACCOUNT_PERIOD_MS;

type Db = Kysely<Database> | Transaction<Database>;

/**
 * Whether a report counts towards hiding (docs/decisions/020-reporters-and-visitor-votes.md): a
 * visitor's does, by its network; a member's as their standing allows (src/shared/standing.ts,
 * decision 027): not a new account's, that is one under a day old or that has done nothing here
 * (a round played to its end, a meme still up). A vote is not enough: it is one click, and
 * accounts made to report-bomb would cast one first. A new account's report is still filed
 * and shown in the queue.
 */
async function reportCountsToHide(db: Db, memberId: number | null, now: number) {
  if (memberId === null) return true;
  return (await memberStanding(db, memberId, now)).allowance.reportsCount;
}

/**
 * Files one report and hides the meme when it reaches the threshold, in one transaction (the
 * meme row locked on PostgreSQL, so two reports at once both count). 404 for a meme that is not
 * shown, 409 for a second report from the same member, or from a visitor's network.
 */
export async function fileReport(
  db: Kysely<Database>,
  report: {
    memeId: number;
    /** The member (`u:<id>`), or for a visitor the network: one report per key and meme. */
    reporter: string;
    /** The network the report came from: what the threshold counts. */
    reporterIdentity: string;
    memberId: number | null;
    reason: ReportReason;
    now: number;
  },
): Promise<{ hidden: boolean }> {
  const result = await fileReportOnce(db, report);
  if (result.hidden)
    recordLiveEvent(db, { type: 'meme', data: { id: report.memeId, change: 'hidden' } });
  return result;
}

async function fileReportOnce(
  db: Kysely<Database>,
  report: Parameters<typeof fileReport>[1],
): Promise<{ hidden: boolean }> {
  return db.transaction().execute(async (trx) => {
    let query = trx
      .selectFrom('memes')
      .select('id')
      .where('id', '=', report.memeId)
      .where('hidden', '=', 0);
    if (isPostgres(db)) query = query.forUpdate();
    if (!(await query.executeTakeFirst())) throw notFound('Meme not found');
    const counts = await reportCountsToHide(trx, report.memberId, report.now);
    const inserted = await trx
      .insertInto('meme_reports')
      .values({
        meme_id: report.memeId,
        reporter: report.reporter,
        reporter_identity: report.reporterIdentity,
        counts_to_hide: counts ? 1 : 0,
        reason: report.reason,
        created_at: report.now,
      })
      .onConflict((oc) => oc.columns(['meme_id', 'reporter']).doNothing())
      .executeTakeFirst();
    if (Number(inserted.numInsertedOrUpdatedRows ?? 0n) === 0) {
      throw new HttpError(
        409,
        report.memberId === null
          ? 'This meme has already been reported from your network.'
          : 'You have already reported this meme.',
        'ALREADY_REPORTED',
      );
    }
    await recordActivity(trx, 'report', report.now);
    if (!counts) return { hidden: false };
    const { n } = await trx
      .selectFrom('meme_reports')
      .select((eb) => eb.fn.count<number>('reporter_identity').distinct().as('n'))
      .where('meme_id', '=', report.memeId)
      .where('decision_id', 'is', null)
      .where('counts_to_hide', '=', 1)
      .executeTakeFirstOrThrow();
    if (Number(n) < REPORTS_TO_HIDE) return { hidden: false };
    await trx.updateTable('memes').set({ hidden: 1 }).where('id', '=', report.memeId).execute();
    return { hidden: true };
  });
}

export type Decision = 'dismiss' | 'hide' | 'unhide' | 'delete';

export interface DecisionResult {
  decisionId: number;
  settledReports: number;
  /** Images nothing else names any more (delete only): the caller removes them from the store. */
  orphanKeys: string[];
}

/** Who decided and why, for the operator log. */
export interface DecisionBy {
  operator: RankedOperator;
  reason: string;
}

/**
 * The operator's decision on a meme, applied and recorded in one transaction, with its row on
 * the operator log: dismiss (the reports were wrong: shown again), hide, unhide, or delete
 * (votes and reports go with it; the record keeps its id and title). Open reports are settled
 * by the decision. Undefined when there is no such meme. The console and the CLI both call it.
 */
export async function decide(
  db: Kysely<Database>,
  memeId: number,
  decision: Decision,
  now: number,
  by: DecisionBy,
): Promise<DecisionResult | undefined> {
  const result = await db.transaction().execute(async (trx) => {
    const meme = await trx
      .selectFrom('memes')
      .select(['title', 'image_key', 'thumbnail_key', 'phash', 'user_id'])
      .where('id', '=', memeId)
      .executeTakeFirst();
    if (!meme) return undefined;
    if (meme.user_id !== null) await refuseUnlessOutranksMember(trx, by.operator, meme.user_id);
    // The reports this decision settles, by reason. A deletion takes the reports with the meme,
    // so the log row keeps what the resolved queue shows of them.
    const open = await trx
      .selectFrom('meme_reports')
      .select((eb) => [
        'reason',
        eb.fn.countAll<number | string>().as('n'),
        eb.fn.min('created_at').as('first'),
        eb.fn.max('created_at').as('last'),
      ])
      .where('meme_id', '=', memeId)
      .where('decision_id', 'is', null)
      .groupBy('reason')
      .execute();
    const n = open.reduce((sum, row) => sum + Number(row.n), 0);
    const reasons = Object.fromEntries(open.map((row) => [row.reason, Number(row.n)]));
    const { id: decisionId } = await trx
      .insertInto('meme_decisions')
      .values({
        meme_id: memeId,
        meme_title: meme.title,
        decision,
        open_reports: n,
        decided_at: now,
        uploader_id: meme.user_id,
        // A deleted picture stays refused (uploads/duplicates.ts).
        phash: decision === 'delete' ? meme.phash : null,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await recordDecision(
      trx,
      by.operator,
      {
        kind: decision,
        targetType: 'meme',
        targetId: memeId,
        targetLabel: meme.title,
        reason: by.reason,
        details: {
          decisionId,
          openReports: n,
          uploaderId: meme.user_id,
          reasons,
          ...(n > 0 && {
            firstReportAt: Math.min(...open.map((row) => Number(row.first))),
            lastReportAt: Math.max(...open.map((row) => Number(row.last))),
          }),
        },
      },
      now,
    );
    await trx
      .updateTable('meme_reports')
      .set({ decision_id: decisionId })
      .where('meme_id', '=', memeId)
      .where('decision_id', 'is', null)
      .execute();
    const orphanKeys: string[] = [];
    if (decision === 'delete') {
      await trx.deleteFrom('memes').where('id', '=', memeId).execute();
      for (const key of [meme.image_key, meme.thumbnail_key]) {
        if (!(await isObjectReferenced(trx, key))) orphanKeys.push(key);
      }
    } else {
      await setHidden(trx, memeId, decision === 'hide');
    }
    return { decisionId, settledReports: n, orphanKeys };
  });
  // Told to live pages once the decision is committed.
  if (result) {
    const change = decision === 'delete' ? 'deleted' : decision === 'hide' ? 'hidden' : 'unhidden';
    recordLiveEvent(db, { type: 'meme', data: { id: memeId, change } });
  }
  return result;
}

async function setHidden(db: Db, memeId: number, hidden: boolean): Promise<void> {
  await db
    .updateTable('memes')
    // Any decision settles a classifier's hold (docs/decisions/027).
    .set({ hidden: hidden ? 1 : 0, held: 0, held_by: null })
    .where('id', '=', memeId)
    .execute();
}
