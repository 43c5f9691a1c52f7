import type { Kysely } from 'kysely';
import { nameSkeleton } from '#shared/name-skeleton.ts';

/**
 * Issue 19, finding 7: each member's name keeps its look-alike skeleton (shared/name-skeleton.ts),
 * unique, so `Аdmin` or `adrnin` cannot be registered beside `admin`.
 *
 * Accounts opened before may already share a skeleton (`admin` and `adrnin` were both allowed).
 * The backfill must not fail on them, and must not rename anyone: the earliest account (lowest
 * id) keeps the skeleton; each later one stores `<skeleton>#<id>`, which no name can produce
 * (`#` is not allowed in a username and no confusable maps to it), so it blocks nothing new and
 * the earliest account is the member the name guards protect.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('users').addColumn('username_skeleton', 'text').execute();
  const users = await db.selectFrom('users').select(['id', 'username']).orderBy('id').execute();
  const seen = new Set<string>();
  for (const { id, username } of users as { id: number; username: string }[]) {
    const skeleton = nameSkeleton(username);
    const stored = seen.has(skeleton) ? `${skeleton}#${id}` : skeleton;
    seen.add(skeleton);
    await db.updateTable('users').set({ username_skeleton: stored }).where('id', '=', id).execute();
  }
  await db.schema
    .createIndex('users_username_skeleton')
    .on('users')
    .column('username_skeleton')
    .unique()
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('users_username_skeleton').execute();
  await db.schema.alterTable('users').dropColumn('username_skeleton').execute();
}
