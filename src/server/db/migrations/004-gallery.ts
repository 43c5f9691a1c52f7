import { sql, type Kysely } from 'kysely';
import { timestamp, withIdColumn } from '../migration-helpers.ts';

export async function up(db: Kysely<any>): Promise<void> {
  // One row per upload URL handed out: makes the URL one-time and ties it to its member.
  await db.schema
    .createTable('uploads')
    .addColumn('key', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('created_at', timestamp, (c) => c.notNull())
    .addColumn('expires_at', timestamp, (c) => c.notNull())
    .addColumn('consumed_at', timestamp)
    .execute();
  await db.schema.createIndex('uploads_expires_at').on('uploads').column('expires_at').execute();

  // A processed image a member may still attach to one meme: the proof behind POST
  // /api/memes's "an objectPath this member processed and has not used yet". Posting the meme
  // deletes the row; the maintenance sweep removes rows (and unshared images) left unused.
  await withIdColumn(db, db.schema.createTable('meme_images'))
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('image_key', 'text', (c) => c.notNull())
    .addColumn('thumbnail_key', 'text', (c) => c.notNull())
    .addColumn('thumbnail_width', 'integer', (c) => c.notNull())
    .addColumn('thumbnail_height', 'integer', (c) => c.notNull())
    .addColumn('created_at', timestamp, (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('meme_images_user_image')
    .on('meme_images')
    .columns(['user_id', 'image_key'])
    .execute();
  await db.schema
    .createIndex('meme_images_image_key')
    .on('meme_images')
    .column('image_key')
    .execute();
  await db.schema
    .createIndex('meme_images_thumbnail_key')
    .on('meme_images')
    .column('thumbnail_key')
    .execute();
  await db.schema
    .createIndex('meme_images_created_at')
    .on('meme_images')
    .column('created_at')
    .execute();

  await withIdColumn(db, db.schema.createTable('memes'))
    // Memes outlive their author's account; the operator removes them with memes:delete.
    .addColumn('user_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('category', 'text', (c) => c.notNull())
    .addColumn('image_key', 'text', (c) => c.notNull())
    .addColumn('thumbnail_key', 'text', (c) => c.notNull())
    .addColumn('thumbnail_width', 'integer', (c) => c.notNull())
    .addColumn('thumbnail_height', 'integer', (c) => c.notNull())
    .addColumn('upvotes', 'integer', (c) =>
      c
        .notNull()
        .defaultTo(0)
        .check(sql`upvotes >= 0`),
    )
    .addColumn('downvotes', 'integer', (c) =>
      c
        .notNull()
        .defaultTo(0)
        .check(sql`downvotes >= 0`),
    )
    .addColumn('hidden', 'integer', (c) =>
      c
        .notNull()
        .defaultTo(0)
        .check(sql`hidden in (0, 1)`),
    )
    .addColumn('created_at', timestamp, (c) => c.notNull())
    .execute();
  // The gallery's pages: visible memes newest first, all or one category, keyed by id.
  await db.schema.createIndex('memes_visible_id').on('memes').columns(['hidden', 'id']).execute();
  await db.schema
    .createIndex('memes_visible_category_id')
    .on('memes')
    .columns(['hidden', 'category', 'id'])
    .execute();
  await db.schema.createIndex('memes_image_key').on('memes').column('image_key').execute();
  await db.schema.createIndex('memes_thumbnail_key').on('memes').column('thumbnail_key').execute();

  // Bumped in the same transaction as every change to which memes a page shows (a new meme,
  // hide, unhide, delete), so each node's page cache can tell in one key lookup whether it is
  // still right, even after a change made by another node or the operator's CLI.
  await db.schema
    .createTable('gallery_state')
    .addColumn('id', 'integer', (c) => c.primaryKey().check(sql`id = 1`))
    .addColumn('version', 'integer', (c) => c.notNull())
    .execute();
  await db.insertInto('gallery_state').values({ id: 1, version: 0 }).execute();

  // The votes themselves; memes.upvotes/downvotes change only in the same transaction as a row
  // here, so the counts always equal the votes stored.
  await db.schema
    .createTable('meme_votes')
    .addColumn('meme_id', 'integer', (c) => c.notNull().references('memes.id').onDelete('cascade'))
    .addColumn('voter', 'text', (c) => c.notNull())
    .addColumn('vote_type', 'text', (c) => c.notNull().check(sql`vote_type in ('up', 'down')`))
    .addColumn('created_at', timestamp, (c) => c.notNull())
    .addPrimaryKeyConstraint('meme_votes_pk', ['meme_id', 'voter'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('meme_votes').execute();
  await db.schema.dropTable('gallery_state').execute();
  await db.schema.dropTable('memes').execute();
  await db.schema.dropTable('meme_images').execute();
  await db.schema.dropTable('uploads').execute();
}
