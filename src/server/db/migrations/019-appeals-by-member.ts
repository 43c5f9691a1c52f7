import type { Kysely } from 'kysely';
import { createIndexes } from '../migration-helpers.ts';

/**
 * Every signed-in page load asks whether the member has an appeal decision they have not seen
 * (console/appeals.ts, untoldDecision): by member, not a scan of every appeal.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await createIndexes(db, 'appeals', { appeals_member: ['user_id', 'decided_at'] });
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('appeals_member').execute();
}
