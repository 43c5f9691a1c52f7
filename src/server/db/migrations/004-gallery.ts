import { sql, type CreateTableBuilder, type Kysely } from 'kysely';
import {
  countFromZero,
  createIndexes,
  dropTables,
  flag,
  keptAfterUser,
  deletedWithUser,
  timestamp,
  withIdColumn,
} from '../migration-helpers.ts';

/**
 * A processed image's stored files: the display image and its thumbnail with its size. A meme
 * takes them over from the meme_images row it was posted from.
 */
function withImageColumns<T extends string, C extends string>(table: CreateTableBuilder<T, C>) {
  return table
    .addColumn('image_key', 'text', (c) => c.notNull())
    .addColumn('thumbnail_key', 'text', (c) => c.notNull())
    .addColumn('thumbnail_width', 'integer', (c) => c.notNull())
    .addColumn('thumbnail_height', 'integer', (c) => c.notNull());
}

export async function up(db: Kysely<any>): Promise<void> {
  // One row per upload URL handed out: makes the URL one-time and ties it to its member.
  await db.schema
    .createTable('uploads')
    .addColumn('key', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'integer', deletedWithUser)
    .addColumn('created_at', timestamp, (c) => c.notNull())
    .addColumn('expires_at', timestamp, (c) => c.notNull())
    .addColumn('consumed_at', timestamp)
    .execute();
  await createIndexes(db, 'uploads', { uploads_expires_at: ['expires_at'] });

  // A processed image a member may still attach to one meme: the proof behind POST
  // /api/memes's "an objectPath this member processed and has not used yet". Posting the meme
  // deletes the row; the maintenance sweep removes rows (and unshared images) left unused.
  await withIdColumn(db, db.schema.createTable('meme_images'))
    .addColumn('user_id', 'integer', deletedWithUser)
    .$call(withImageColumns)
    .addColumn('created_at', timestamp, (c) => c.notNull())
    .execute();
  await createIndexes(db, 'meme_images', {
    meme_images_user_image: ['user_id', 'image_key'],
    meme_images_image_key: ['image_key'],
    meme_images_thumbnail_key: ['thumbnail_key'],
    meme_images_created_at: ['created_at'],
  });

  await withIdColumn(db, db.schema.createTable('memes'))
    // Memes outlive their author's account; the operator removes them with memes:delete.
    .addColumn('user_id', 'integer', keptAfterUser)
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('category', 'text', (c) => c.notNull())
    .$call(withImageColumns)
    .addColumn('upvotes', 'integer', countFromZero('upvotes'))
    .addColumn('downvotes', 'integer', countFromZero('downvotes'))
    .addColumn('hidden', 'integer', flag('hidden'))
    .addColumn('created_at', timestamp, (c) => c.notNull())
    .execute();
  // The gallery's pages: visible memes newest first, all or one category, keyed by id.
  await createIndexes(db, 'memes', {
    memes_visible_id: ['hidden', 'id'],
    memes_visible_category_id: ['hidden', 'category', 'id'],
    memes_image_key: ['image_key'],
    memes_thumbnail_key: ['thumbnail_key'],
  });

  // Bumped in the same transaction as every change to which memes a page shows (a new meme,
  // hide, unhide, delete), so each node's page cache can tell in one key lookup whether it is
  // still right, even after a change made by another node or the operator's CLI.
  await createGalleryState(db);

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

/** The gallery's version row at 0 (also 008's down, which puts it back). */
export async function createGalleryState(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('gallery_state')
    .addColumn('id', 'integer', (c) => c.primaryKey().check(sql`id = 1`))
    .addColumn('version', 'integer', (c) => c.notNull())
    .execute();
  await db.insertInto('gallery_state').values({ id: 1, version: 0 }).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await dropTables(db, ['meme_votes', 'gallery_state', 'memes', 'meme_images', 'uploads']);
}
