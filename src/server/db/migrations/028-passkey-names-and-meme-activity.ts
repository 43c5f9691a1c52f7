import { sql, type Kysely } from 'kysely';
import { appendOnly, dropAppendOnly } from '../append-only.ts';
import { createIndexes, dropTables, timestamp, withIdColumn } from '../migration-helpers.ts';

/** A passkey's name, as long as the console lets one be (PASSKEY_NAME_MAX). */
const PASSKEY_NAME_MAX = 64;

/**
 * Issue 41. Passkeys get a name ("YubiKey", "work laptop"), so an operator with a backup can tell
 * which one to remove; null for those added before, which the console shows by number.
 *
 * And the gallery's activity as it happened, for the console's overview: one row per meme posted,
 * vote cast and report filed, written in the transaction that makes it and never changed. The
 * overview counted the surviving rows of `memes`, `meme_votes` and `meme_reports`, so a deleted
 * meme (its votes and reports go with it) and a withdrawn vote vanished from the charts. The rows
 * existing today are copied in, so the charts go on from what they showed.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('passkeys')
    .addColumn('name', 'text', (c) => c.check(sql`length(name) <= ${sql.lit(PASSKEY_NAME_MAX)}`))
    .execute();

  await withIdColumn(db, db.schema.createTable('meme_activity'))
    .addColumn('kind', 'text', (c) => c.notNull().check(sql`kind in ('meme', 'vote', 'report')`))
    .addColumn('created_at', timestamp, (c) => c.notNull())
    .execute();
  await createIndexes(db, 'meme_activity', { meme_activity_created: ['created_at'] });
  for (const [kind, table] of [
    ['meme', 'memes'],
    ['vote', 'meme_votes'],
    ['report', 'meme_reports'],
  ] as const) {
    await db
      .insertInto('meme_activity')
      .columns(['kind', 'created_at'])
      .expression(
        db
          .selectFrom(table)
          .select([sql.lit(kind).as('kind'), 'created_at'])
          .orderBy('created_at'),
      )
      .execute();
  }
  await appendOnly(db, 'meme_activity');
}

export async function down(db: Kysely<any>): Promise<void> {
  await dropAppendOnly(db, 'meme_activity');
  await dropTables(db, ['meme_activity']);
  await db.schema.alterTable('passkeys').dropColumn('name').execute();
}
