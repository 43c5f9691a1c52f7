import { sql, type Kysely } from 'kysely';
import { createIndexes, dropTables, timestamp, withIdColumn } from '../migration-helpers.ts';

/** Issue 22: perceptual hashes, reports and the operator's decisions, sort snapshots. */
export async function up(db: Kysely<any>): Promise<void> {
  // 64-bit perceptual hash of the picture as 16 hex digits (uploads/perceptual-hash.ts): kept
  // on the processed image and copied to the meme it becomes. Null for memes from before.
  // The display image's size too, for a link preview's og:image:width and height (memes from
  // before have none and preview with their thumbnail).
  for (const table of ['meme_images', 'memes']) {
    await db.schema.alterTable(table).addColumn('phash', 'text').execute();
    await db.schema.alterTable(table).addColumn('image_width', 'integer').execute();
    await db.schema.alterTable(table).addColumn('image_height', 'integer').execute();
  }
  // Upload slots count a new account's memes; Top of the week reads the last seven days.
  await createIndexes(db, 'memes', {
    memes_user_id: ['user_id'],
    memes_visible_created_at: ['hidden', 'created_at'],
  });

  // One row per reporter and meme (the primary key is the one-report rule). `reporter` is the
  // voter key (u:<id> or v:<visitor id>); `reporter_identity` is what the hiding threshold counts:
  // the member, or for a visitor the address, so clearing cookies does not make a new reporter.
  await db.schema
    .createTable('meme_reports')
    .addColumn('meme_id', 'integer', (c) => c.notNull().references('memes.id').onDelete('cascade'))
    .addColumn('reporter', 'text', (c) => c.notNull())
    .addColumn('reporter_identity', 'text', (c) => c.notNull())
    .addColumn('reason', 'text', (c) => c.notNull())
    .addColumn('created_at', timestamp, (c) => c.notNull())
    // Null while open; the decision that settled it otherwise.
    .addColumn('decision_id', 'integer')
    .addPrimaryKeyConstraint('meme_reports_pk', ['meme_id', 'reporter'])
    .execute();
  await createIndexes(db, 'meme_reports', { meme_reports_open: ['decision_id', 'meme_id'] });

  // Every moderation decision, kept after the meme itself is deleted (so no foreign key).
  await withIdColumn(db, db.schema.createTable('meme_decisions'))
    .addColumn('meme_id', 'integer', (c) => c.notNull())
    .addColumn('meme_title', 'text', (c) => c.notNull())
    .addColumn('decision', 'text', (c) =>
      c.notNull().check(sql`decision in ('dismiss', 'hide', 'delete', 'unhide')`),
    )
    .addColumn('open_reports', 'integer', (c) => c.notNull())
    .addColumn('decided_at', timestamp, (c) => c.notNull())
    .execute();
  await createIndexes(db, 'meme_decisions', { meme_decisions_meme_id: ['meme_id'] });

  // The order of a Hot or Top list as it stood when its first page was read: later pages read
  // their slice, so votes and the passing hours between pages cannot repeat or skip a card.
  await withIdColumn(db, db.schema.createTable('meme_list_snapshots'))
    .addColumn('list_key', 'text', (c) => c.notNull())
    .addColumn('meme_ids', 'text', (c) => c.notNull())
    .addColumn('created_at', timestamp, (c) => c.notNull())
    .execute();
  await createIndexes(db, 'meme_list_snapshots', {
    meme_list_snapshots_key: ['list_key', 'created_at'],
    meme_list_snapshots_created_at: ['created_at'],
  });
}

export async function down(db: Kysely<any>): Promise<void> {
  await dropTables(db, ['meme_list_snapshots', 'meme_decisions', 'meme_reports']);
  await db.schema.dropIndex('memes_visible_created_at').execute();
  await db.schema.dropIndex('memes_user_id').execute();
  for (const table of ['memes', 'meme_images']) {
    for (const column of ['image_height', 'image_width', 'phash']) {
      await db.schema.alterTable(table).dropColumn(column).execute();
    }
  }
}
