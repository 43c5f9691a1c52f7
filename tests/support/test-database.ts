import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { inject } from 'vitest';
import type { AppConfig } from '#server/config.ts';
import { createScratchPostgres } from './scratch-postgres.ts';

export type DatabaseKind = 'sqlite' | 'postgres';

/** SQLite always; PostgreSQL too when TEST_DATABASE_URL names a server to create databases on. */
export const databaseKinds: DatabaseKind[] = process.env.TEST_DATABASE_URL
  ? ['sqlite', 'postgres']
  : ['sqlite'];

export interface TestDatabase {
  dataDir: string;
  /** As the server is configured: on PostgreSQL, an app role plus the migration role. */
  database: AppConfig['database'];
  /** The owner's view (the migration role on PostgreSQL), for tests that migrate or seed by hand. */
  owner: AppConfig['database'];
  drop(): Promise<void>;
}

/**
 * The run's migrated template for this engine (tests/support/template-databases.ts, Vitest's
 * global setup), or undefined where there is none (a file run under another config).
 */
function migratedTemplate(kind: DatabaseKind): string | undefined {
  try {
    return (kind === 'sqlite' ? inject('sqliteTemplate') : inject('postgresTemplate')) ?? undefined;
  } catch {
    return undefined;
  }
}

/**
 * A database of its own for one test file (or one test), dropped afterwards: empty, or with
 * `migrated`, a copy of the run's migrated template (the server finds nothing left to migrate;
 * without a template it is empty and the server migrates it as it starts, as in production).
 */
export async function createTestDatabase(
  kind: DatabaseKind,
  { migrated = false }: { migrated?: boolean } = {},
): Promise<TestDatabase> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'grind-test-'));
  const removeDir = () => fs.rmSync(dataDir, { recursive: true, force: true });
  const template = migrated ? migratedTemplate(kind) : undefined;
  if (kind === 'sqlite') {
    const database = { kind, file: path.join(dataDir, 'app.db') };
    if (template) fs.copyFileSync(template, database.file);
    return {
      dataDir,
      database,
      owner: database,
      drop: async () => removeDir(),
    };
  }
  const scratch = await createScratchPostgres(process.env.TEST_DATABASE_URL!, 'grind_test', {
    template,
  });
  return {
    dataDir,
    database: { kind, url: scratch.url, migrationUrl: scratch.migrationUrl },
    owner: { kind, url: scratch.migrationUrl },
    async drop() {
      await scratch.drop();
      removeDir();
    },
  };
}
