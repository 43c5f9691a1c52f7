import { sql, type Kysely } from 'kysely';

/**
 * The gallery's version row goes: gallery pages follow the one read-cache rule
 * (docs/decisions/011-one-read-cache-rule.md), a short lifetime per node, instead of a version
 * every page read had to ask the database for.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('gallery_state').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('gallery_state')
    .addColumn('id', 'integer', (c) => c.primaryKey().check(sql`id = 1`))
    .addColumn('version', 'integer', (c) => c.notNull())
    .execute();
  await db.insertInto('gallery_state').values({ id: 1, version: 0 }).execute();
}
