import type { Kysely, Transaction } from 'kysely';
import type { RaidThresholds } from '#shared/raid.ts';
import type { Database } from '../db/database.ts';
import { isPostgres } from '../db/migration-helpers.ts';

type Db = Kysely<Database> | Transaction<Database>;

/** The raid switch and its thresholds (one row, migration 023). */
export interface RaidRow {
  active: boolean;
  since: number | null;
  automatic: boolean;
  thresholds: RaidThresholds;
}

/** The row; `lock` (in a transaction) holds it on PostgreSQL so two switches queue up. */
export async function readRaid(
  db: Db,
  { lock = false }: { lock?: boolean } = {},
): Promise<RaidRow> {
  let query = db.selectFrom('raid_mode').selectAll().where('id', '=', 1);
  if (lock && isPostgres(db)) query = query.forUpdate();
  const row = await query.executeTakeFirstOrThrow();
  return {
    active: row.active === 1,
    since: row.since,
    automatic: row.automatic === 1,
    thresholds: {
      signupsPerHour: row.signups_per_hour,
      newPostsPerHour: row.new_posts_per_hour,
      reportsPerHour: row.reports_per_hour,
      quietMinutes: row.quiet_minutes,
    },
  };
}

export async function writeSwitch(
  db: Db,
  change: { active: boolean; automatic: boolean; now: number },
): Promise<void> {
  await db
    .updateTable('raid_mode')
    .set({
      active: change.active ? 1 : 0,
      since: change.active ? change.now : null,
      automatic: change.automatic ? 1 : 0,
      updated_at: change.now,
    })
    .where('id', '=', 1)
    .execute();
}

/** Raid mode stays while signs keep coming: the quiet period counts from the last one. */
export async function noteSign(db: Db, now: number): Promise<void> {
  await db.updateTable('raid_mode').set({ updated_at: now }).where('id', '=', 1).execute();
}

export async function lastSignAt(db: Db): Promise<number> {
  const row = await db
    .selectFrom('raid_mode')
    .select('updated_at')
    .where('id', '=', 1)
    .executeTakeFirstOrThrow();
  return row.updated_at;
}

export async function writeThresholds(db: Db, t: RaidThresholds): Promise<void> {
  await db
    .updateTable('raid_mode')
    .set({
      signups_per_hour: t.signupsPerHour,
      new_posts_per_hour: t.newPostsPerHour,
      reports_per_hour: t.reportsPerHour,
      quiet_minutes: t.quietMinutes,
    })
    .where('id', '=', 1)
    .execute();
}

/** Spends a solved challenge: false when it was spent before. Expired ones go on the way. */
export async function spendChallenge(
  db: Kysely<Database>,
  signature: string,
  expiresAt: number,
  now: number,
): Promise<boolean> {
  await db.deleteFrom('spent_challenges').where('expires_at', '<', now).execute();
  const inserted = await db
    .insertInto('spent_challenges')
    .values({ signature, expires_at: expiresAt })
    .onConflict((oc) => oc.column('signature').doNothing())
    .executeTakeFirst();
  return Number(inserted.numInsertedOrUpdatedRows ?? 0n) === 1;
}
