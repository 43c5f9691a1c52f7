import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { openMigratedDatabase } from '#server/db/migrate.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** A SQLite file migrated to the latest schema, for test databases to copy. */
    sqliteTemplate: string;
    /** A PostgreSQL database migrated to the latest schema, for `CREATE DATABASE ... TEMPLATE`. */
    postgresTemplate: string | null;
  }
}

async function asAdmin(adminUrl: string, statement: string): Promise<void> {
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query(statement);
  } finally {
    await admin.end();
  }
}

/**
 * Vitest's global setup: migrates one database per engine once per run, so each test app starts
 * from a copy (a file copy on SQLite, `CREATE DATABASE ... TEMPLATE` on PostgreSQL) instead of
 * running every migration again (docs/decisions/025-startup-lifecycle-and-suite.md). The server
 * still runs its migrations as it starts; on a copy there is nothing left for them to do.
 */
export default async function setup(project: TestProject) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'grind-template-'));
  const sqliteTemplate = path.join(dir, 'template.db');
  await (await openMigratedDatabase({ kind: 'sqlite', file: sqliteTemplate })).destroy();
  project.provide('sqliteTemplate', sqliteTemplate);

  const adminUrl = process.env.TEST_DATABASE_URL;
  let postgresTemplate: string | null = null;
  if (adminUrl) {
    postgresTemplate = `grind_template_${randomBytes(6).toString('hex')}`;
    await asAdmin(adminUrl, `CREATE DATABASE ${postgresTemplate}`);
    const url = new URL(adminUrl);
    url.pathname = `/${postgresTemplate}`;
    await (await openMigratedDatabase({ kind: 'postgres', url: url.toString() })).destroy();
  }
  project.provide('postgresTemplate', postgresTemplate);

  return async () => {
    if (adminUrl && postgresTemplate)
      await asAdmin(adminUrl, `DROP DATABASE IF EXISTS ${postgresTemplate} WITH (FORCE)`);
    fs.rmSync(dir, { recursive: true, force: true });
  };
}
