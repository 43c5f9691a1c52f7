import { Migrator, type Kysely } from 'kysely';
import { ConfigError, type AppConfig } from '../config.ts';
import { createDatabase, type DatabaseOptions } from './create-database.ts';
import type { Database } from './database.ts';
import { migrations } from './migrations/index.ts';
import { currentRole, grantAppRole, rewriteRisk } from './roles.ts';

export function createMigrator(db: Kysely<any>): Migrator {
  return new Migrator({ db, provider: { getMigrations: async () => migrations } });
}

export class MigrationError extends Error {}

/** Applies every pending migration; refuses a database migrated by newer code than this. */
export async function migrateToLatest(db: Kysely<any>): Promise<void> {
  const { error, results } = await createMigrator(db).migrateToLatest();
  if (!error) return;
  const reason = error instanceof Error ? error.message : String(error);
  if (/corrupted migrations/i.test(reason)) {
    throw new MigrationError(
      `The database has migrations this code does not know (${reason}); upgrade the code before starting.`,
    );
  }
  const failed = results?.find((r) => r.status === 'Error');
  throw new MigrationError(`Migration ${failed?.migrationName ?? '(unknown)'} failed: ${reason}`);
}

/**
 * The configured database, migrated to the latest schema (closed again if migrating fails).
 * With DATABASE_MIGRATION_URL, the migration role migrates and grants the app role (the one
 * DATABASE_URL logs in as, see roles.ts) what it may do; the connection returned is the app's.
 * `requireAppRole` (a production server) refuses a PostgreSQL role that could rewrite an
 * append-only table.
 */
export async function openMigratedDatabase(
  database: AppConfig['database'],
  { requireAppRole = false, log }: { requireAppRole?: boolean } & Pick<DatabaseOptions, 'log'> = {},
): Promise<Kysely<Database>> {
  const db = createDatabase(database, { log });
  try {
    if (database.kind === 'postgres' && database.migrationUrl !== undefined) {
      const owner = createDatabase(
        { kind: 'postgres', url: database.migrationUrl },
        { poolSize: 1 },
      );
      try {
        await migrateToLatest(owner);
        await grantAppRole(owner, await currentRole(db));
      } finally {
        await owner.destroy();
      }
    } else {
      await migrateToLatest(db);
    }
    const risk = database.kind === 'postgres' && requireAppRole ? await rewriteRisk(db) : undefined;
    if (risk !== undefined) {
      throw new ConfigError(
        `Invalid DATABASE_URL: ${risk}, so it could rewrite the append-only records; connect as an app role and migrate with DATABASE_MIGRATION_URL (docs/deployment.md)`,
      );
    }
  } catch (error) {
    await db.destroy();
    throw error;
  }
  return db;
}
