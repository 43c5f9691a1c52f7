import { sql, type Kysely } from 'kysely';
import { APPEND_ONLY_FUNCTION } from './append-only.ts';

/**
 * PostgreSQL roles (docs/deployment.md, docs/decisions/019-append-only-records-and-wallet-changes.md):
 * the migration role (DATABASE_MIGRATION_URL) owns the tables; the app role (DATABASE_URL) is
 * granted what serving needs, and on an append-only table only SELECT and INSERT. An owner can
 * disable a table's triggers; a role that is granted privileges cannot.
 */

/** The tables whose triggers call appendOnly()'s function, in the connection's schema. */
export async function appendOnlyTables(db: Kysely<any>): Promise<string[]> {
  const { rows } = await sql<{ name: string }>`
    select distinct c.relname as name
    from pg_trigger t
    join pg_class c on c.oid = t.tgrelid
    where t.tgfoid = to_regproc(${APPEND_ONLY_FUNCTION})
      and c.relnamespace = current_schema()::regnamespace
    order by name`.execute(db);
  return rows.map((r) => r.name);
}

/**
 * Run by the migration role after migrating, at every start, so a table a migration added is
 * granted the same day: read and write on every table, but no UPDATE or DELETE on an
 * append-only one (TRUNCATE, ALTER and DISABLE TRIGGER are never granted), and only reads of the
 * migration bookkeeping.
 */
export async function grantAppRole(owner: Kysely<any>, role: string): Promise<void> {
  const app = sql.id(role);
  const {
    rows: [row],
  } = await sql<{ schema: string }>`select current_schema() as schema`.execute(owner);
  const schema = sql.id(row!.schema);
  const appendOnly = await appendOnlyTables(owner);
  await owner.transaction().execute(async (trx) => {
    await sql`grant usage on schema ${schema} to ${app}`.execute(trx);
    await sql`grant select, insert, update, delete on all tables in schema ${schema} to ${app}`.execute(
      trx,
    );
    await sql`grant usage, select on all sequences in schema ${schema} to ${app}`.execute(trx);
    await sql`revoke insert, update, delete on kysely_migration, kysely_migration_lock from ${app}`.execute(
      trx,
    );
    for (const table of appendOnly) {
      await sql`revoke update, delete, truncate on ${sql.id(table)} from ${app}`.execute(trx);
    }
  });
}

/**
 * Why this connection's role could rewrite an append-only table (it is a superuser, or owns one,
 * directly or through a role it belongs to); undefined when it cannot.
 */
export async function rewriteRisk(db: Kysely<any>): Promise<string | undefined> {
  const {
    rows: [who],
  } = await sql<{ role: string; superuser: boolean }>`
    select current_user as role, rolsuper as superuser from pg_roles where rolname = current_user`.execute(
    db,
  );
  if (who!.superuser) return `its role ${who!.role} is a superuser`;
  const tables = await appendOnlyTables(db);
  const { rows } = await sql<{ name: string }>`
    select c.relname as name from pg_class c
    where c.relnamespace = current_schema()::regnamespace
      and c.relname::text = any(${tables}::text[])
      and pg_has_role(current_user, c.relowner, 'USAGE')
    order by name`.execute(db);
  if (rows.length === 0) return undefined;
  return `its role ${who!.role} owns ${rows.map((r) => r.name).join(', ')}`;
}

/** The role a connection logs in as. */
export async function currentRole(db: Kysely<any>): Promise<string> {
  const {
    rows: [row],
  } = await sql<{ role: string }>`select current_user as role`.execute(db);
  return row!.role;
}
