// Migration 012 on a database that already holds look-alike members (allowed before it): the
// backfill does not fail, the earliest account keeps the skeleton, later ones store a distinct
// value, and from then on no new look-alike can be registered.
import { afterEach, describe, expect, it } from 'vitest';
import { nameSkeleton } from '#shared/name-skeleton.ts';
import {
  createTestDatabase,
  databaseKinds,
  type TestDatabase,
} from '#test-support/test-database.ts';
import { insertUser } from '../accounts/repository.ts';
import { createDatabase } from './create-database.ts';
import { createMigrator, migrateToLatest } from './migrate.ts';

describe.each(databaseKinds)('migration 012 over look-alike members on %s', (kind) => {
  let testDb: TestDatabase | undefined;
  afterEach(async () => {
    await testDb?.drop();
    testDb = undefined;
  });

  it('keeps the skeleton for the earliest account and a distinct value for later ones', async () => {
    testDb = await createTestDatabase(kind);
    const db = createDatabase(testDb.owner);
    try {
      const { error } = await createMigrator(db).migrateTo('011-gallery-community');
      expect(error).toBeUndefined();
      const names = ['admin', 'adrnin', 'ADMlN', 'l0l', 'lOl', 'carol'];
      for (const [i, username] of names.entries()) {
        await db
          .insertInto('users')
          .values({
            username,
            username_lower: username.toLowerCase(),
            password_hash: '$argon2id$x',
            created_at: i,
          })
          .execute();
      }
      await migrateToLatest(db);
      const rows = await db
        .selectFrom('users')
        .select(['id', 'username', 'username_skeleton'])
        .orderBy('id')
        .execute();
      const id = (name: string) => rows.find((row) => row.username === name)!.id;
      expect(rows.map((row) => row.username_skeleton)).toEqual([
        nameSkeleton('admin'),
        `${nameSkeleton('admin')}#${id('adrnin')}`,
        'adrnln',
        nameSkeleton('l0l'),
        `${nameSkeleton('l0l')}#${id('lOl')}`,
        nameSkeleton('carol'),
      ]);
      // The earliest account's skeleton still guards the name.
      const lookAlike = await insertUser(db, { username: 'Adrnin', passwordHash: 'x', now: 9 });
      expect(lookAlike).toBeUndefined();
    } finally {
      await db.destroy();
    }
  });
});
