import type { Kysely, Transaction } from 'kysely';
import type { ReportReason } from '#shared/api/memes.ts';
import type { Database } from '../db/database.ts';
import { isPostgres } from '../db/migration-helpers.ts';
import { HttpError, notFound } from '../http-error.ts';
import { isObjectReferenced } from './repository.ts';

/**
 * Reports from this many distinct reporters hide a meme at once, pending the operator's review
 * (`memes:queue`). Distinct means members, or visitors' addresses: a visitor who clears cookies
 * is still one reporter, so one person cannot take a meme down alone. Three, as a false report
 * costs an honest meme a few hours out of the gallery, while abuse left up costs more.
 */
export const REPORTS_TO_HIDE = 3;

type Db = Kysely<Database> | Transaction<Database>;

/**
 * Files one report and hides the meme when it reaches the threshold, in one transaction (the
 * meme row locked on PostgreSQL, so two reports at once both count). 404 for a meme that is not
 * shown, 409 for a second report from the same reporter.
 */
export async function fileReport(
  db: Kysely<Database>,
  report: {
    memeId: number;
    reporter: string;
    reporterIdentity: string;
    reason: ReportReason;
    now: number;
  },
): Promise<{ hidden: boolean }> {
  return db.transaction().execute(async (trx) => {
    let query = trx
      .selectFrom('memes')
      .select('id')
      .where('id', '=', report.memeId)
      .where('hidden', '=', 0);
    if (isPostgres(db)) query = query.forUpdate();
    if (!(await query.executeTakeFirst())) throw notFound('Meme not found');
    const inserted = await trx
      .insertInto('meme_reports')
      .values({
        meme_id: report.memeId,
        reporter: report.reporter,
        reporter_identity: report.reporterIdentity,
        reason: report.reason,
        created_at: report.now,
      })
      .onConflict((oc) => oc.columns(['meme_id', 'reporter']).doNothing())
      .executeTakeFirst();
    if (Number(inserted.numInsertedOrUpdatedRows ?? 0n) === 0) {
      throw new HttpError(409, 'You have already reported this meme.', 'ALREADY_REPORTED');
    }
    const { n } = await trx
      .selectFrom('meme_reports')
      .select((eb) => eb.fn.count<number>('reporter_identity').distinct().as('n'))
      .where('meme_id', '=', report.memeId)
      .where('decision_id', 'is', null)
      .executeTakeFirstOrThrow();
    if (Number(n) < REPORTS_TO_HIDE) return { hidden: false };
    await trx.updateTable('memes').set({ hidden: 1 }).where('id', '=', report.memeId).execute();
    return { hidden: true };
  });
}

export interface QueueEntry {
  id: number;
  title: string;
  hidden: boolean;
  reports: number;
  reasons: Record<string, number>;
  firstReportAt: number;
}

/** Memes with open reports, most reported first (then the longest waiting). */
export async function reportQueue(db: Kysely<Database>, limit: number): Promise<QueueEntry[]> {
  const rows = await db
    .selectFrom('meme_reports')
    .innerJoin('memes', 'memes.id', 'meme_reports.meme_id')
    .select([
      'memes.id',
      'memes.title',
      'memes.hidden',
      'meme_reports.reason',
      'meme_reports.created_at',
    ])
    .where('meme_reports.decision_id', 'is', null)
    .execute();
  const byMeme = new Map<number, QueueEntry>();
  for (const row of rows) {
    const entry = byMeme.get(row.id) ?? {
      id: row.id,
      title: row.title,
      hidden: row.hidden === 1,
      reports: 0,
      reasons: {},
      firstReportAt: row.created_at,
    };
    entry.reports++;
    entry.reasons[row.reason] = (entry.reasons[row.reason] ?? 0) + 1;
    entry.firstReportAt = Math.min(entry.firstReportAt, row.created_at);
    byMeme.set(row.id, entry);
  }
  return [...byMeme.values()]
    .sort((a, b) => b.reports - a.reports || a.firstReportAt - b.firstReportAt)
    .slice(0, limit);
}

export type Decision = 'dismiss' | 'hide' | 'unhide' | 'delete';

export interface DecisionResult {
  decisionId: number;
  settledReports: number;
  /** Images nothing else names any more (delete only): the caller removes them from the store. */
  orphanKeys: string[];
}

/**
 * The operator's decision on a meme, applied and recorded in one transaction: dismiss (the
 * reports were wrong: shown again), hide, unhide, or delete (votes and reports go with it; the
 * record keeps its id and title). Open reports are settled by the decision. Undefined when
 * there is no such meme.
 */
export async function decide(
  db: Kysely<Database>,
  memeId: number,
  decision: Decision,
  now: number,
): Promise<DecisionResult | undefined> {
  return db.transaction().execute(async (trx) => {
    const meme = await trx
      .selectFrom('memes')
      .select(['title', 'image_key', 'thumbnail_key'])
      .where('id', '=', memeId)
      .executeTakeFirst();
    if (!meme) return undefined;
    const { n } = await trx
      .selectFrom('meme_reports')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('meme_id', '=', memeId)
      .where('decision_id', 'is', null)
      .executeTakeFirstOrThrow();
    const { id: decisionId } = await trx
      .insertInto('meme_decisions')
      .values({
        meme_id: memeId,
        meme_title: meme.title,
        decision,
        open_reports: Number(n),
        decided_at: now,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
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
    return { decisionId, settledReports: Number(n), orphanKeys };
  });
}

async function setHidden(db: Db, memeId: number, hidden: boolean): Promise<void> {
  await db
    .updateTable('memes')
    .set({ hidden: hidden ? 1 : 0 })
    .where('id', '=', memeId)
    .execute();
}
