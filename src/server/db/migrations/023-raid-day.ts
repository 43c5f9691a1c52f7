import { sql, type Kysely } from 'kysely';
import { createIndexes, dropTables, flag, timestamp, withIdColumn } from '../migration-helpers.ts';

/**
 * Raid day (issue 43, docs/decisions/027-raid-day.md): the raid switch and its thresholds (one
 * row), spent proof-of-work challenges, images held by the classifier, the perceptual-hash
 * blocklist, what a suspension's clean-up took (so a lift can restore it), who a meme decision
 * was about (standing counts upheld reports), and the alerts' outbox.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('raid_mode')
    .addColumn('id', 'integer', (c) => c.primaryKey().check(sql`id = 1`))
    .addColumn('active', 'integer', flag('active'))
    .addColumn('since', timestamp)
    .addColumn('automatic', 'integer', flag('automatic'))
    .addColumn('signups_per_hour', 'integer', (c) => c.notNull().check(sql`signups_per_hour > 0`))
    .addColumn('new_posts_per_hour', 'integer', (c) =>
      c.notNull().check(sql`new_posts_per_hour > 0`),
    )
    .addColumn('reports_per_hour', 'integer', (c) => c.notNull().check(sql`reports_per_hour > 0`))
    .addColumn('quiet_minutes', 'integer', (c) => c.notNull().check(sql`quiet_minutes > 0`))
    .addColumn('updated_at', timestamp, (c) => c.notNull())
    .execute();
  // The defaults decision 027 chose, written here as numbers: a migration
  // stays as it was whatever the code says later.
  await db
    .insertInto('raid_mode')
    .values({
      id: 1,
      active: 0,
      since: null,
      automatic: 0,
      signups_per_hour: 60,
      new_posts_per_hour: 30,
      reports_per_hour: 40,
      quiet_minutes: 60,
      updated_at: 0,
    })
    .execute();

  // A solved sign-up challenge is good once: its signature is kept until the challenge expires.
  await db.schema
    .createTable('spent_challenges')
    .addColumn('signature', 'text', (c) => c.primaryKey())
    .addColumn('expires_at', timestamp, (c) => c.notNull())
    .execute();

  // The classifier's score of a processed image, and a meme held for review because of it.
  await db.schema.alterTable('meme_images').addColumn('screen_score', 'real').execute();
  await db.schema.alterTable('memes').addColumn('screen_score', 'real').execute();
  await db.schema.alterTable('memes').addColumn('held', 'integer', flag('held')).execute();

  // Who the decided meme was by: upheld reports count against that member's standing.
  // A plain number, as operator_id: the record outlives the account.
  await db.schema.alterTable('meme_decisions').addColumn('uploader_id', 'integer').execute();

  await withIdColumn(db, db.schema.createTable('phash_blocklist'))
    .addColumn('phash', 'text', (c) =>
      c.notNull().unique().check(sql`length(phash) = 16`),
    )
    .addColumn('source', 'text', (c) => c.notNull())
    .addColumn('note', 'text')
    .addColumn('added_at', timestamp, (c) => c.notNull())
    .execute();

  // What a suspension's clean-up hid or removed, so lifting with restore puts it back.
  await withIdColumn(db, db.schema.createTable('suspension_cleanups'))
    .addColumn('suspension_id', 'integer', (c) => c.notNull().references('suspensions.id'))
    .addColumn('kind', 'text', (c) => c.notNull().check(sql`kind in ('meme', 'vote', 'report')`))
    .addColumn('meme_id', 'integer', (c) => c.notNull())
    .addColumn('vote_type', 'text')
    .addColumn('voter', 'text')
    .addColumn('reporter_identity', 'text')
    .addColumn('counts_to_hide', 'integer')
    .addColumn('reason', 'text')
    .addColumn('created_at', timestamp, (c) => c.notNull())
    .addColumn('restored_at', timestamp)
    .execute();
  await createIndexes(db, 'suspension_cleanups', {
    suspension_cleanups_suspension: ['suspension_id'],
  });

  await withIdColumn(db, db.schema.createTable('alert_outbox'))
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('channel', 'text', (c) =>
      c.notNull().check(sql`channel in ('discord', 'telegram', 'email')`),
    )
    .addColumn('subject', 'text', (c) => c.notNull())
    .addColumn('body', 'text', (c) => c.notNull())
    .addColumn('created_at', timestamp, (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('next_attempt_at', timestamp, (c) => c.notNull())
    .addColumn('sent_at', timestamp)
    .addColumn('failed_at', timestamp)
    .addColumn('last_error', 'text')
    .execute();
  await createIndexes(db, 'alert_outbox', { alert_outbox_due: ['sent_at', 'next_attempt_at'] });
  // The hourly counts the raid trigger reads.
  await createIndexes(db, 'users', { users_created: ['created_at'] });
  await createIndexes(db, 'meme_reports', { meme_reports_created: ['created_at'] });
  await createIndexes(db, 'memes', { memes_created: ['created_at'] });
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const index of ['memes_created', 'meme_reports_created', 'users_created']) {
    await db.schema.dropIndex(index).execute();
  }
  await dropTables(db, [
    'alert_outbox',
    'suspension_cleanups',
    'phash_blocklist',
    'spent_challenges',
    'raid_mode',
  ]);
  await db.schema.alterTable('meme_decisions').dropColumn('uploader_id').execute();
  await db.schema.alterTable('memes').dropColumn('held').execute();
  await db.schema.alterTable('memes').dropColumn('screen_score').execute();
  await db.schema.alterTable('meme_images').dropColumn('screen_score').execute();
}
