import { randomBytes } from 'node:crypto';
import { runStatements } from '#server/db/roles.ts';

export interface ScratchPostgres {
  /** The app role's connection (DATABASE_URL): granted, not owning (src/server/db/roles.ts). */
  url: string;
  /** The migration role's (DATABASE_MIGRATION_URL): the server `adminUrl` names, on this database. */
  migrationUrl: string;
  drop(): Promise<void>;
}

/**
 * A fresh database (empty, or a copy of `template`) on the server `adminUrl` points at (e.g.
 * TEST_DATABASE_URL), with an app role of its own: role names are global to the server, so each database's carries the
 * database's random name, and parallel test files never share one.
 */
export async function createScratchPostgres(
  adminUrl: string,
  prefix = 'grind_scale',
  /** A database to copy (`CREATE DATABASE ... TEMPLATE`) instead of starting empty. */
  { template }: { template?: string } = {},
): Promise<ScratchPostgres> {
  const name = `${prefix}_${randomBytes(6).toString('hex')}`;
  const role = `${name}_app`;
  const password = randomBytes(12).toString('hex');
  await runStatements(adminUrl, [
    template ? `CREATE DATABASE ${name} TEMPLATE ${template}` : `CREATE DATABASE ${name}`,
    `CREATE ROLE ${role} LOGIN PASSWORD '${password}'`,
  ]);
  const migrationUrl = new URL(adminUrl);
  migrationUrl.pathname = `/${name}`;
  const url = new URL(migrationUrl);
  url.username = role;
  url.password = password;
  return {
    url: url.toString(),
    migrationUrl: migrationUrl.toString(),
    async drop() {
      // The role's grants live in the database alone, so it can go once the database has.
      await runStatements(adminUrl, [
        `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`,
        `DROP ROLE IF EXISTS ${role}`,
      ]);
    },
  };
}
