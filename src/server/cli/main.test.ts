import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { SQLite } from '../db/sqlite.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runAdminCli } from '#test-support/admin-cli.ts';
import { loadConfig } from '../config.ts';
import { createDatabase } from '../db/create-database.ts';
import { creditCoins } from '../shop/ledger.ts';
import { sleep } from '#test-support/sleep.ts';

/** The real CLI in its own process, as `npm run admin -- ...` starts it. */
function cli(dataDir: string, ...args: string[]) {
  return runAdminCli({ DATA_DIR: dataDir, NODE_ENV: 'test' }, ...args);
}

describe('npm run admin (a separate process on a SQLite data folder)', { timeout: 90_000 }, () => {
  let dataDir: string;
  beforeAll(() => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'grind-cli-'));
  });
  afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

  function addMember(username: string): number {
    const db = new SQLite(path.join(dataDir, 'app.db'));
    try {
      const info = db
        .prepare(
          'INSERT INTO users (username, username_lower, password_hash, created_at) VALUES (?, ?, ?, ?)',
        )
        .run(username, username.toLowerCase(), 'x', Date.UTC(2026, 0, 1));
      return Number(info.lastInsertRowid);
    } finally {
      db.close();
    }
  }

  it('migrates a fresh data folder, grants coins and shows the ledger; usage mistakes exit 2', async () => {
    const first = await cli(dataDir, 'users:list');
    expect(first).toEqual({ code: 0, stdout: 'No members yet.\n', stderr: '' });

    addMember('Operator_Test');
    const grant = await cli(
      dataDir,
      'coins:grant',
      'operator_test',
      '500',
      '--reason',
      'Launch bonus',
    );
    expect(grant.stderr).toBe('');
    expect(grant.stdout).toBe('Granted 500 coins to Operator_Test (Launch bonus). Balance: 500.\n');
    expect(grant.code).toBe(0);

    const ledger = await cli(dataDir, 'coins:ledger', 'Operator_Test');
    expect(ledger.code).toBe(0);
    expect(ledger.stdout).toMatch(/\+500 +500 +grant +"Launch bonus"\n/);
    expect(ledger.stdout).toMatch(/Balance 500 = ledger sum 500: consistent\.\n$/);

    const usage = await cli(dataDir, 'coins:grant', 'Operator_Test');
    expect(usage.code).toBe(2);
    expect(usage.stdout).toBe('');
    expect(usage.stderr).toBe(
      'Error: Missing <amount>\nUsage: npm run admin -- coins:grant <username> <amount> [--reason TEXT]\n',
    );

    const help = await cli(dataDir, '--help');
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('backup <file>');
  });

  it('stops with a one-line error when the configuration is wrong', async () => {
    const res = await runAdminCli(
      { DATA_DIR: dataDir, NODE_ENV: 'test', DATABASE_URL: 'mysql://nope' },
      'users:list',
    );
    expect(res.code).toBe(1);
    expect(res.stderr).toBe(
      'Error: Invalid DATABASE_URL: must start with postgres:// or postgresql:// (got "mysql://nope")\n',
    );
  });

  it('backs up while the server keeps writing, and the copy is consistent', async () => {
    const userId = addMember('busy_member');
    // A second connection in this process plays the running server: credits every few ms.
    const db = createDatabase(loadConfig({ DATA_DIR: dataDir }).database);
    let writing = true;
    let credits = 0;
    const writer = (async () => {
      while (writing) {
        await creditCoins(db, { userId, amount: 3, reason: 'grant', now: Date.now() });
        credits += 1;
        await sleep(2);
      }
    })();
    try {
      const target = path.join(dataDir, 'backup.db');
      const res = await cli(dataDir, 'backup', target);
      writing = false;
      await writer;
      expect(res.stderr).toBe('');
      expect(res.code).toBe(0);
      expect(res.stdout).toMatch(
        /^Backed up to .*backup\.db \(\d+ bytes, integrity ok, 2 members\)\.\n$/,
      );

      const copy = new SQLite(target, { readonly: true });
      try {
        const row = copy
          .prepare(
            'SELECT u.coins AS coins, (SELECT coalesce(sum(delta), 0) FROM coin_ledger WHERE user_id = u.id) AS total, (SELECT count(*) FROM coin_ledger WHERE user_id = u.id) AS n FROM users u WHERE u.id = ?',
          )
          .get(userId) as { coins: number; total: number; n: number };
        expect(row.total).toBe(row.coins);
        expect(row.coins).toBe(row.n * 3);
        // The copy is a moment during the writes, not before or after them all.
        expect(credits).toBeGreaterThan(0);
        expect(row.n).toBeLessThanOrEqual(credits);
      } finally {
        copy.close();
      }
    } finally {
      writing = false;
      await writer;
      await db.destroy();
    }
  });
});
