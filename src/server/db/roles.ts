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

/** The two roles and the database `db:roles` sets up (docs/deployment.md, "PostgreSQL roles"). */
export interface TwoRoles {
  owner: { name: string; password: string };
  app: { name: string; password: string };
  database: string;
}

const IDENTIFIER = /^[a-z_][a-z0-9_]{0,62}$/;

/** A role or database name `db:roles` accepts: plain lowercase SQL identifiers, never quoted. */
export function isPlainIdentifier(name: string): boolean {
  return IDENTIFIER.test(name);
}

/**
 * The SQL that sets up the two roles, as a superuser: on the server (roles and the database, the
 * owner owning it), then inside the new database (the owner owns the public schema, so it can
 * create the tables on every PostgreSQL version, and nobody else may create anything there).
 */
export function twoRoleSql(roles: TwoRoles): { server: string[]; database: string[] } {
  const literal = (text: string) => `'${text.replace(/'/g, "''")}'`;
  return {
    server: [
      `CREATE ROLE ${roles.owner.name} LOGIN PASSWORD ${literal(roles.owner.password)};`,
      `CREATE ROLE ${roles.app.name} LOGIN PASSWORD ${literal(roles.app.password)};`,
      `CREATE DATABASE ${roles.database} OWNER ${roles.owner.name};`,
    ],
    database: [
      `ALTER SCHEMA public OWNER TO ${roles.owner.name};`,
      'REVOKE CREATE ON SCHEMA public FROM PUBLIC;',
    ],
  };
}

/** The two connection URLs a node starts with, on the server `superuserUrl` names. */
export function twoRoleUrls(
  superuserUrl: string,
  roles: TwoRoles,
): { migrationUrl: string; appUrl: string } {
  const url = (role: { name: string; password: string }) => {
    const at = new URL(superuserUrl);
    at.username = role.name;
    at.password = role.password;
    at.pathname = `/${roles.database}`;
    return at.toString();
  };
  return { migrationUrl: url(roles.owner), appUrl: url(roles.app) };
}

/**
 * Runs twoRoleSql as the superuser `superuserUrl` logs in as: the roles and the database, then
 * the schema rules inside it. A role or database that exists already stops it with PostgreSQL's
 * own message (nothing is dropped or changed).
 */
export async function applyTwoRoles(superuserUrl: string, roles: TwoRoles): Promise<void> {
  const statements = twoRoleSql(roles);
  const inDatabase = new URL(superuserUrl);
  inDatabase.pathname = `/${roles.database}`;
  await runStatements(superuserUrl, statements.server);
  await runStatements(inDatabase.toString(), statements.database);
}

/** Runs `statements` in order on one connection to the PostgreSQL server `url` names. */
export async function runStatements(url: string, statements: readonly string[]): Promise<void> {
  const { default: pg } = await import('pg');
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    for (const statement of statements) await client.query(statement);
  } finally {
    await client.end();
  }
}
