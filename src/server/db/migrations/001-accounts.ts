import type { Kysely } from 'kysely';
import {
  countFromZero,
  createIndexes,
  dropTables,
  deletedWithUser,
  timestamp,
  withIdColumn,
} from '../migration-helpers.ts';

export async function up(db: Kysely<any>): Promise<void> {
  await withIdColumn(db, db.schema.createTable('users'))
    .addColumn('username', 'text', (c) => c.notNull())
    .addColumn('username_lower', 'text', (c) => c.notNull().unique())
    .addColumn('password_hash', 'text', (c) => c.notNull())
    .addColumn('coins', 'integer', countFromZero('coins'))
    .addColumn('selected_character_key', 'text', (c) => c.notNull().defaultTo('default'))
    .addColumn('created_at', timestamp, (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('sessions')
    .addColumn('id_hash', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'integer', deletedWithUser)
    .addColumn('created_at', timestamp, (c) => c.notNull())
    .addColumn('last_seen_at', timestamp, (c) => c.notNull())
    .addColumn('expires_at', timestamp, (c) => c.notNull())
    .execute();
  await createIndexes(db, 'sessions', {
    sessions_user_id: ['user_id'],
    sessions_expires_at: ['expires_at'],
  });

  await db.schema
    .createTable('rate_limits')
    .addColumn('key', 'text', (c) => c.primaryKey())
    .addColumn('window_start', timestamp, (c) => c.notNull())
    .addColumn('count', 'integer', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await dropTables(db, ['rate_limits', 'sessions', 'users']);
}
