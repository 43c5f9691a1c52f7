import { sql, type Kysely } from 'kysely';
import { appendOnly } from '../append-only.ts';
import {
  createIndexes,
  deletedWithUser,
  dropTables,
  timestamp,
  withIdColumn,
} from '../migration-helpers.ts';

/**
 * The operator console (docs/decisions/022-operator-console.md): roles on members, passkeys,
 * a passkey step-up on the session, the append-only operator log, suspensions with their
 * appeals, and the prize week's replay watches and disqualifications.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('users')
    .addColumn('role', 'text', (c) =>
      c
        .notNull()
        .defaultTo('member')
        .check(sql`role in ('member', 'moderator', 'admin')`),
    )
    .execute();
  // The last passkey sign-in (or step-up) of this session: the console needs one within 15 min.
  await db.schema.alterTable('sessions').addColumn('passkey_at', timestamp).execute();
  // The WebAuthn challenge this session was last given, and when it stops being good.
  await db.schema.alterTable('sessions').addColumn('passkey_challenge', 'text').execute();
  await db.schema
    .alterTable('sessions')
    .addColumn('passkey_challenge_expires_at', timestamp)
    .execute();

  await withIdColumn(db, db.schema.createTable('passkeys'))
    .addColumn('user_id', 'integer', deletedWithUser)
    .addColumn('credential_id', 'text', (c) => c.notNull().unique())
    .addColumn('public_key', 'text', (c) => c.notNull())
    .addColumn('counter', 'bigint', (c) => c.notNull())
    .addColumn('transports', 'text', (c) => c.notNull())
    .addColumn('created_at', timestamp, (c) => c.notNull())
    .addColumn('last_used_at', timestamp)
    .execute();
  await createIndexes(db, 'passkeys', { passkeys_user: ['user_id'] });

  // Every operator decision, from the console or the CLI. operator_id is a plain number (as in
  // prize_events), so that deleting an account leaves the record whole; null for the CLI.
  await withIdColumn(db, db.schema.createTable('operator_log'))
    .addColumn('operator_id', 'integer')
    .addColumn('operator_name', 'text', (c) => c.notNull())
    .addColumn('operator_address', 'text', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('target_type', 'text', (c) => c.notNull())
    .addColumn('target_id', 'text', (c) => c.notNull())
    .addColumn('target_label', 'text', (c) => c.notNull())
    .addColumn('reason', 'text', (c) => c.notNull())
    .addColumn('details', 'text', (c) => c.notNull())
    .addColumn('created_at', timestamp, (c) => c.notNull())
    .execute();
  await createIndexes(db, 'operator_log', {
    operator_log_created: ['created_at'],
    operator_log_kind: ['kind', 'created_at'],
    operator_log_operator: ['operator_id', 'created_at'],
    operator_log_target: ['target_type', 'target_id'],
  });
  await appendOnly(db, 'operator_log');

  await withIdColumn(db, db.schema.createTable('suspensions'))
    .addColumn('user_id', 'integer', deletedWithUser)
    .addColumn('reason', 'text', (c) => c.notNull())
    .addColumn('starts_at', timestamp, (c) => c.notNull())
    // Null: for good.
    .addColumn('ends_at', timestamp)
    .addColumn('operator_id', 'integer')
    .addColumn('lifted_at', timestamp)
    .addColumn('lifted_by', 'integer')
    .execute();
  await createIndexes(db, 'suspensions', { suspensions_user: ['user_id', 'starts_at'] });

  await withIdColumn(db, db.schema.createTable('appeals'))
    .addColumn('suspension_id', 'integer', (c) =>
      c.notNull().unique().references('suspensions.id').onDelete('cascade'),
    )
    .addColumn('user_id', 'integer', deletedWithUser)
    .addColumn('text', 'text', (c) => c.notNull())
    .addColumn('created_at', timestamp, (c) => c.notNull())
    .addColumn('decision', 'text')
    .addColumn('decision_note', 'text')
    .addColumn('decided_at', timestamp)
    .addColumn('decided_by', 'integer')
    .addColumn('told_at', timestamp)
    .execute();
  await createIndexes(db, 'appeals', { appeals_open: ['decided_at', 'created_at'] });

  // An operator watched a run's replay to its end: what an approval needs.
  await createReplayActs(db, 'replay_watches', 'watched_at');

  await db.schema
    .createTable('run_disqualifications')
    .addColumn('run_id', 'text', (c) => c.primaryKey())
    .addColumn('reason', 'text', (c) => c.notNull())
    .addColumn('operator_id', 'integer')
    .addColumn('created_at', timestamp, (c) => c.notNull())
    .execute();
}

/**
 * A table of what operators did with runs' replays: one row per operator, run and time (`at`),
 * found by run. 022's replay_opens is the second.
 */
export async function createReplayActs(db: Kysely<any>, table: string, at: string): Promise<void> {
  await withIdColumn(db, db.schema.createTable(table))
    .addColumn('operator_id', 'integer', (c) => c.notNull())
    .addColumn('run_id', 'text', (c) => c.notNull())
    .addColumn(at, timestamp, (c) => c.notNull())
    .execute();
  await createIndexes(db, table, { [`${table}_run`]: ['run_id', 'operator_id'] });
}

export async function down(db: Kysely<any>): Promise<void> {
  await dropTables(db, [
    'run_disqualifications',
    'replay_watches',
    'appeals',
    'suspensions',
    'operator_log',
    'passkeys',
  ]);
  for (const column of ['passkey_challenge_expires_at', 'passkey_challenge', 'passkey_at']) {
    await db.schema.alterTable('sessions').dropColumn(column).execute();
  }
  await db.schema.alterTable('users').dropColumn('role').execute();
}
