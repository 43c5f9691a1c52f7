// A database built at each earlier schema, with data written in that schema, then migrated to
// the latest as a node does at start: every row is still there, as written. Generic over the
// migration list; the data per migration lives in tests/support/migration-seeds.ts.
import { afterEach, describe, expect, it } from 'vitest';
import { migrationSeeds } from '#test-support/migration-seeds.ts';
import {
  createTestDatabase,
  databaseKinds,
  type TestDatabase,
} from '#test-support/test-database.ts';
import { createDatabase } from './create-database.ts';
import { createMigrator, migrateToLatest } from './migrate.ts';
import { migrations } from './migrations/index.ts';

const names = Object.keys(migrations);

describe('migration seed data', () => {
  it('covers every migration, or says why one has nothing to fill', () => {
    const missing = names.filter((name) => !(name in migrationSeeds));
    expect(
      missing,
      'migrations without seed data: add them to tests/support/migration-seeds.ts',
    ).toEqual([]);
    const unknown = Object.keys(migrationSeeds).filter((name) => !names.includes(name));
    expect(unknown, 'seed data for migrations that do not exist').toEqual([]);
  });
});

/**
 * Every start point on SQLite. On PostgreSQL, where each migration's DDL costs far more and a
 * database per start point made this file a minute of the suite (n databases, n²/2 migrations),
 * the last one alone: a database that lived the whole history, each migration and then the data
 * written under it, every seed checked at the end. The same data meets every later migration.
 */
const startPoints = (kind: (typeof databaseKinds)[number]) =>
  kind === 'postgres' ? names.slice(-1) : names;

describe.each(databaseKinds)(
  'migrating to the latest schema from every earlier one on %s',
  (kind) => {
    let testDb: TestDatabase | undefined;
    afterEach(async () => {
      await testDb?.drop();
      testDb = undefined;
    });

    it.each(startPoints(kind))('keeps the data of a database at %s', async (at) => {
      testDb = await createTestDatabase(kind);
      const db = createDatabase(testDb.owner);
      try {
        const migrator = createMigrator(db);
        const applied = names.slice(0, names.indexOf(at) + 1);
        // History as it happened: each migration, then the data written under it.
        for (const name of applied) {
          const { error } = await migrator.migrateTo(name);
          expect(error, `migrating to ${name}`).toBeUndefined();
          const seed = migrationSeeds[name];
          if (seed && 'seed' in seed) await seed.seed(db);
        }
        await migrateToLatest(db);
        for (const name of applied) {
          const seed = migrationSeeds[name];
          if (seed && 'verify' in seed) await seed.verify(db);
        }
      } finally {
        await db.destroy();
      }
    });
  },
);
