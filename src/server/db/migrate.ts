import { Migrator, type Kysely } from 'kysely';
import type { AppConfig } from '../config.ts';
import { createDatabase } from './create-database.ts';
import type { Database } from './database.ts';
import { migrations } from './migrations/index.ts';

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

/** The configured database, migrated to the latest schema (closed again if migrating fails). */
export async function openMigratedDatabase(
  database: AppConfig['database'],
): Promise<Kysely<Database>> {
  const db = createDatabase(database);
  try {
    await migrateToLatest(db);
  } catch (error) {
    await db.destroy();
    throw error;
  }
  return db;
}
