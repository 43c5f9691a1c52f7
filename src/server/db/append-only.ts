import { sql, type Kysely } from 'kysely';
import { isPostgres } from './migration-helpers.ts';

/**
 * The PostgreSQL function every append-only table's triggers call. The role grants
 * (db/roles.ts) find the append-only tables by it, so a new one needs only appendOnly() in its
 * migration.
 */
export const APPEND_ONLY_FUNCTION = 'refuse_append_only_change';

/**
 * Makes `table` (one with an `id` primary key, see withIdColumn) refuse every change but a new
 * row, in the database itself rather than only in the repository
 * (docs/decisions/019-append-only-records-and-wallet-changes.md):
 * - PostgreSQL: triggers refuse UPDATE, DELETE and TRUNCATE. A trigger binds only a role that
 *   does not own the table (an owner may disable it), so the app connects as a role that is
 *   granted SELECT and INSERT alone (db/roles.ts).
 * - SQLite: triggers refuse UPDATE and DELETE, and an INSERT whose id is already taken. REPLACE
 *   deletes the row it conflicts with without firing delete triggers unless recursive_triggers is
 *   on; create-database.ts turns it on for every connection, which covers a conflict on any other
 *   unique column, and the insert trigger covers the id even on a connection without it.
 */
export async function appendOnly(db: Kysely<any>, table: string): Promise<void> {
  const name = sql.id(table);
  const refusal = sql.lit(`${table} is append-only`);
  if (isPostgres(db)) {
    await sql`
      create or replace function ${sql.id(APPEND_ONLY_FUNCTION)}() returns trigger
      language plpgsql as $$
      begin
        raise exception '% is append-only', tg_table_name;
      end
      $$`.execute(db);
    await sql`
      create trigger ${sql.id(`${table}_append_only`)} before update or delete on ${name}
      for each row execute function ${sql.id(APPEND_ONLY_FUNCTION)}()`.execute(db);
    await sql`
      create trigger ${sql.id(`${table}_append_only_truncate`)} before truncate on ${name}
      for each statement execute function ${sql.id(APPEND_ONLY_FUNCTION)}()`.execute(db);
    return;
  }
  await sql`
    create trigger ${sql.id(`${table}_append_only_update`)} before update on ${name}
    begin select raise(abort, ${refusal}); end`.execute(db);
  await sql`
    create trigger ${sql.id(`${table}_append_only_delete`)} before delete on ${name}
    begin select raise(abort, ${refusal}); end`.execute(db);
  await sql`
    create trigger ${sql.id(`${table}_append_only_replace`)} before insert on ${name}
    when exists (select 1 from ${name} where id = new.id)
    begin select raise(abort, ${refusal}); end`.execute(db);
}

/** Undoes appendOnly(), for a down migration that keeps the table. */
export async function dropAppendOnly(db: Kysely<any>, table: string): Promise<void> {
  const suffixes = isPostgres(db) ? ['', '_truncate'] : ['_update', '_delete', '_replace'];
  for (const suffix of suffixes) {
    const trigger = sql.id(`${table}_append_only${suffix}`);
    await (
      isPostgres(db)
        ? sql`drop trigger ${trigger} on ${sql.id(table)}`
        : sql`drop trigger ${trigger}`
    ).execute(db);
  }
}
