import type { Kysely } from 'kysely';
import type { MEME_DECISIONS, QueueEntry } from '#shared/api/console/queue.ts';
import type { Database } from '../db/database.ts';
import { objectPathForKey } from './object-paths.ts';

type MemeDecision = (typeof MEME_DECISIONS)[number];

/**
 * The report queue: memes with open reports (status `open`), or the latest decisions that
 * settled reports (`resolved`), each with the meme, its uploader, the count and the reasons.
 */
export async function reportQueue(
  db: Kysely<Database>,
  options: { status: 'open' | 'resolved'; sort: 'newest' | 'most'; limit: number },
): Promise<QueueEntry[]> {
  return options.status === 'open' ? openQueue(db, options) : resolvedQueue(db, options.limit);
}

async function openQueue(
  db: Kysely<Database>,
  options: { sort: 'newest' | 'most'; limit: number },
): Promise<QueueEntry[]> {
  const rows = await db
    .selectFrom('meme_reports')
    .innerJoin('memes', 'memes.id', 'meme_reports.meme_id')
    .leftJoin('users', 'users.id', 'memes.user_id')
    .select([
      'memes.id',
      'memes.title',
      'memes.hidden',
      'memes.image_key',
      'memes.thumbnail_key',
      'users.username',
      'meme_reports.reason',
      'meme_reports.created_at',
    ])
    .where('meme_reports.decision_id', 'is', null)
    .execute();
  const byMeme = new Map<number, QueueEntry>();
  for (const row of rows) {
    let entry = byMeme.get(row.id);
    if (!entry) {
      entry = {
        meme: {
          id: row.id,
          title: row.title,
          imageUrl: objectPathForKey(row.image_key),
          thumbnailUrl: objectPathForKey(row.thumbnail_key),
          hidden: row.hidden === 1,
          deleted: false,
          uploader: row.username,
        },
        reports: 0,
        reasons: {},
        firstReportAt: row.created_at,
        lastReportAt: row.created_at,
        decision: null,
      };
      byMeme.set(row.id, entry);
    }
    entry.reports++;
    entry.reasons[row.reason] = (entry.reasons[row.reason] ?? 0) + 1;
    entry.firstReportAt = Math.min(entry.firstReportAt, row.created_at);
    entry.lastReportAt = Math.max(entry.lastReportAt, row.created_at);
  }
  const order =
    options.sort === 'most'
      ? (a: QueueEntry, b: QueueEntry) => b.reports - a.reports || a.firstReportAt - b.firstReportAt
      : (a: QueueEntry, b: QueueEntry) => b.lastReportAt - a.lastReportAt;
  return [...byMeme.values()].sort(order).slice(0, options.limit);
}

async function resolvedQueue(db: Kysely<Database>, limit: number): Promise<QueueEntry[]> {
  const decisions = await db
    .selectFrom('meme_decisions')
    .leftJoin('memes', 'memes.id', 'meme_decisions.meme_id')
    .leftJoin('users', 'users.id', 'memes.user_id')
    .select([
      'meme_decisions.id',
      'meme_decisions.meme_id',
      'meme_decisions.meme_title',
      'meme_decisions.decision',
      'meme_decisions.open_reports',
      'meme_decisions.decided_at',
      'memes.hidden',
      'memes.image_key',
      'memes.thumbnail_key',
      'users.username',
    ])
    .where('meme_decisions.open_reports', '>', 0)
    .orderBy('meme_decisions.id', 'desc')
    .limit(limit)
    .execute();
  if (decisions.length === 0) return [];
  // Two reads for the whole page, not two per decision.
  const reports = await db
    .selectFrom('meme_reports')
    .select(['decision_id', 'reason', 'created_at'])
    .where(
      'decision_id',
      'in',
      decisions.map((d) => d.id),
    )
    .execute();
  // The log rows the decisions wrote (same meme, kind and time).
  const logged = await db
    .selectFrom('operator_log')
    .select(['target_id', 'kind', 'created_at', 'operator_name', 'reason', 'details'])
    .where('target_type', '=', 'meme')
    .where(
      'target_id',
      'in',
      decisions.map((d) => String(d.meme_id)),
    )
    .orderBy('id', 'desc')
    .execute();
  const logs = new Map(
    decisions.map((d) => {
      const row = logged.find(
        (l) =>
          l.target_id === String(d.meme_id) &&
          l.kind === d.decision &&
          l.created_at === d.decided_at,
      );
      return [d.id, row && { ...row, details: settledReportsOf(row.details) }] as const;
    }),
  );
  // A deleted meme's uploader, by the id its decision logged (none once the account is gone).
  const known = decisions.flatMap((d) => {
    const id = d.image_key === null ? logs.get(d.id)?.details.uploaderId : null;
    return typeof id === 'number' ? [id] : [];
  });
  const names = new Map(
    known.length === 0
      ? []
      : (
          await db.selectFrom('users').select(['id', 'username']).where('id', 'in', known).execute()
        ).map((u) => [u.id, u.username]),
  );
  return decisions.map((d): QueueEntry => {
    const own = reports.filter((r) => r.decision_id === d.id);
    const log = logs.get(d.id);
    const deleted = d.image_key === null;
    let reasons: Record<string, number> = {};
    for (const r of own) reasons[r.reason] = (reasons[r.reason] ?? 0) + 1;
    let times = own.map((r) => r.created_at);
    let uploader = d.username;
    if (deleted && log) {
      // The reports went with the meme: the decision's log row kept them.
      reasons = log.details.reasons;
      times = [log.details.firstReportAt, log.details.lastReportAt].filter(
        (t): t is number => t !== undefined,
      );
      uploader =
        log.details.uploaderId === null ? null : (names.get(log.details.uploaderId) ?? null);
    }
    return {
      meme: {
        id: d.meme_id,
        title: d.meme_title,
        imageUrl: deleted ? null : objectPathForKey(d.image_key!),
        thumbnailUrl: deleted ? null : objectPathForKey(d.thumbnail_key!),
        hidden: d.hidden === 1,
        deleted,
        uploader,
      },
      reports: d.open_reports,
      reasons,
      firstReportAt: times.length ? Math.min(...times) : d.decided_at,
      lastReportAt: times.length ? Math.max(...times) : d.decided_at,
      decision: {
        kind: d.decision as MemeDecision,
        decidedAt: d.decided_at,
        operator: log?.operator_name ?? null,
        reason: log?.reason ?? null,
      },
    };
  });
}

/** What a meme decision's log row says of the reports it settled (memes/moderation.ts). */
function settledReportsOf(json: string): {
  uploaderId: number | null;
  reasons: Record<string, number>;
  firstReportAt?: number;
  lastReportAt?: number;
} {
  const details = JSON.parse(json) as Record<string, unknown>;
  const time = (value: unknown) => (typeof value === 'number' ? value : undefined);
  const reasons: Record<string, number> = {};
  if (details.reasons && typeof details.reasons === 'object') {
    for (const [reason, n] of Object.entries(details.reasons)) {
      if (typeof n === 'number') reasons[reason] = n;
    }
  }
  return {
    uploaderId: typeof details.uploaderId === 'number' ? details.uploaderId : null,
    reasons,
    firstReportAt: time(details.firstReportAt),
    lastReportAt: time(details.lastReportAt),
  };
}

/** How many reports wait for a decision. */
export async function openReportCount(db: Kysely<Database>): Promise<number> {
  const { n } = await db
    .selectFrom('meme_reports')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('decision_id', 'is', null)
    .executeTakeFirstOrThrow();
  return Number(n);
}
