import { sql, type Kysely } from 'kysely';
import { isPostgres } from '../migration-helpers.ts';

/**
 * Issue 34: the ids of the live event stream, shared by every node (live/transport.ts). SQLite
 * serves one node, whose ids come from its own process: nothing to create there.
 */
export async function up(db: Kysely<any>): Promise<void> {
  if (!isPostgres(db)) return;
  await sql`create sequence if not exists live_event_ids`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  if (!isPostgres(db)) return;
  await sql`drop sequence if exists live_event_ids`.execute(db);
}
