// The append-only records (db/append-only.ts) refuse every rewrite through the app's own
// connection: UPDATE, DELETE, SQLite's REPLACE and upserts, and on PostgreSQL TRUNCATE and
// the owner's way around triggers (ALTER TABLE ... DISABLE TRIGGER), which the app role lacks.
import { SQLite } from './sqlite.ts';
import { sql, type Kysely } from 'kysely';
import { describe, expect, it } from 'vitest';
import { suiteApp } from '#test-support/test-app.ts';
import { createTestDatabase, databaseKinds } from '#test-support/test-database.ts';
import { ConfigError } from '../config.ts';
import type { Database } from './database.ts';
import { openMigratedDatabase } from './migrate.ts';
import { appendOnlyTables } from './roles.ts';

const refused = /append-only|permission denied|must be owner/;

let weeks = 0;

/** One row in each append-only table, written as the app writes them; their ids. */
async function seedRows(db: Kysely<Database>) {
  weeks += 1;
  const prize = await db
    .insertInto('prize_events')
    .values({
      week_id: `2026-W${weeks}`,
      step: 'paid',
      player_name: 'Ann',
      wallet_address: 'AnnWallet',
      tx_signature: `tx-${Math.random()}`,
      created_at: 1000,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  const change = await db
    .insertInto('wallet_changes')
    .values({
      user_id: 1,
      old_address: null,
      new_address: 'AnnWallet',
      message: 'm',
      signature: 's',
      changed_at: 1000,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return { prize: prize.id, change: change.id };
}

const snapshot = async (db: Kysely<Database>) => ({
  prize: await db.selectFrom('prize_events').selectAll().orderBy('id').execute(),
  changes: await db.selectFrom('wallet_changes').selectAll().orderBy('id').execute(),
});

describe.each(databaseKinds)('append-only records on %s', (kind) => {
  const t = suiteApp(kind);
  const db = () => t.app.deps.db;

  it('refuses UPDATE, DELETE, REPLACE and upserts from the app', async () => {
    const ids = await seedRows(db());
    const before = await snapshot(db());
    const [paid] = before.prize.filter((r) => r.id === ids.prize);
    const attempts = [
      sql`update prize_events set wallet_address = 'Mallory' where id = ${ids.prize}`,
      sql`delete from prize_events where id = ${ids.prize}`,
      sql`update wallet_changes set new_address = 'Mallory' where id = ${ids.change}`,
      sql`delete from wallet_changes`,
      // The upsert a repository could write by mistake: the conflict turns into an UPDATE.
      sql`insert into prize_events (week_id, step, player_name, tx_signature, created_at)
        values ('2026-W99', 'paid', 'Mallory', ${paid!.tx_signature}, 2000)
        on conflict (tx_signature) do update set player_name = excluded.player_name`,
      sql`insert into wallet_changes (id, user_id, new_address, message, signature, changed_at)
        ${sql.raw(kind === 'postgres' ? 'overriding system value' : '')}
        values (${ids.change}, 1, 'Mallory', 'm', 's', 2000)
        on conflict (id) do update set new_address = excluded.new_address`,
    ];
    if (kind === 'sqlite') {
      attempts.push(
        // The audit's rewrite: REPLACE over the same id.
        sql`insert or replace into prize_events
          (id, week_id, step, player_name, wallet_address, tx_signature, created_at)
          select id, week_id, step, 'Mallory', 'MalloryWallet', tx_signature, created_at
          from prize_events where id = ${ids.prize}`,
        // A new id whose unique transaction signature pushes the paid row out.
        sql`replace into prize_events (week_id, step, player_name, tx_signature, created_at)
          values ('2026-W41', 'approved', 'Mallory', ${paid!.tx_signature}, 3000)`,
        sql`replace into wallet_changes (id, user_id, new_address, message, signature, changed_at)
          values (${ids.change}, 1, 'Mallory', 'm', 's', 2000)`,
      );
    } else {
      attempts.push(
        sql`truncate prize_events`,
        sql`truncate wallet_changes`,
        // What an owner would do first: the app role may not.
        sql`alter table prize_events disable trigger user`,
        sql`alter table wallet_changes disable trigger user`,
        sql`drop trigger prize_events_append_only on prize_events`,
        sql`alter table prize_events owner to current_user`,
      );
    }
    for (const attempt of attempts) {
      await expect(attempt.execute(db()), attempt.compile(db()).sql).rejects.toThrow(refused);
    }
    expect(await snapshot(db())).toEqual(before);
  });

  // Per engine without a skipped test: the other engine has no such connection or role.
  if (kind === 'sqlite') {
    it('refuses REPLACE by id even on a connection that left recursive triggers off', async () => {
      const ids = await seedRows(db());
      const before = await snapshot(db());
      const raw = new SQLite((t.config.database as { file: string }).file);
      try {
        expect(raw.pragma('recursive_triggers', { simple: true })).toBe(0);
        expect(() =>
          raw
            .prepare(
              `insert or replace into prize_events (id, week_id, step, player_name, created_at)
               values (?, '2026-W40', 'paid', 'Mallory', 1)`,
            )
            .run(ids.prize),
        ).toThrow(/append-only/);
      } finally {
        raw.close();
      }
      expect(await snapshot(db())).toEqual(before);
    });
  } else {
    it('grants the app role reads and inserts only', async () => {
      const tables = [
        'meme_activity',
        'operator_log',
        'prize_events',
        'prize_withdrawals',
        'token_burns',
        'wallet_changes',
      ];
      expect(await appendOnlyTables(db())).toEqual(tables);
      const { rows } = await sql<{ privilege_type: string; table_name: string }>`
      select table_name, privilege_type from information_schema.role_table_grants
      where grantee = current_user and table_name in (${sql.join(tables)})
      order by table_name, privilege_type`.execute(db());
      expect(rows).toEqual(
        tables.flatMap((table_name) =>
          ['INSERT', 'SELECT'].map((privilege_type) => ({ table_name, privilege_type })),
        ),
      );
    });
  }
});

if (databaseKinds.includes('postgres'))
  describe('a production node on PostgreSQL', () => {
    it('refuses to serve through a role that could rewrite the append-only records', async () => {
      const testDb = await createTestDatabase('postgres');
      try {
        // One role for everything, as before the migration role: the owner, here a superuser.
        await expect(openMigratedDatabase(testDb.owner, { requireAppRole: true })).rejects.toThrow(
          ConfigError,
        );
        await expect(openMigratedDatabase(testDb.owner, { requireAppRole: true })).rejects.toThrow(
          /^Invalid DATABASE_URL: its role \w+ is a superuser, .*DATABASE_MIGRATION_URL/,
        );
        const db = await openMigratedDatabase(testDb.database, { requireAppRole: true });
        await db.destroy();
      } finally {
        await testDb.drop();
      }
    });
  });
