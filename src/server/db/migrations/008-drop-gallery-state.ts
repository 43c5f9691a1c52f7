import type { Kysely } from 'kysely';
import { createGalleryState } from './004-gallery.ts';

/**
 * The gallery's version row goes: gallery pages follow the one read-cache rule
 * (docs/decisions/011-one-read-cache-rule.md), a short lifetime per node, instead of a version
 * every page read had to ask the database for.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('gallery_state').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await createGalleryState(db);
}
