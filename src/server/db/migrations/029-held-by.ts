import { sql, type Kysely } from 'kysely';

/**
 * Why a meme is held (issue 43): `classifier` when the image classifier held it at upload,
 * `raid` when raid mode's entry held a new account's post of the last hour. The queue said "Held
 * by the image classifier" for both, and showed a raid-held meme's low score as the reason. Null
 * for memes held before this migration, whose reason was not written down.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('memes')
    .addColumn('held_by', 'text', (c) => c.check(sql`held_by in ('classifier', 'raid')`))
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('memes').dropColumn('held_by').execute();
}
