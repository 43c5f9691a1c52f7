import { runAdminIn } from '#test-support/admin-cli.ts';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { SQLite } from '../db/sqlite.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { creditCoins, ledgerEntries } from '../shop/ledger.ts';
import { suiteApp } from '#test-support/test-app.ts';
import { databaseKinds } from '#test-support/test-database.ts';
import { coinsOf, memberWithCoins } from '#test-support/coins.ts';
import { cliCommands, helpText } from './registry.ts';
import { shopPaths, pathTo } from '#shared/api/paths.ts';

describe.each(databaseKinds)('operator CLI on %s', (kind) => {
  const t = suiteApp(kind);
  let scratch: string;
  beforeAll(() => {
    scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'grind-admin-'));
  });
  afterAll(() => fs.rmSync(scratch, { recursive: true, force: true }));

  const db = () => t.app.deps.db;

  /** Runs one command line the way main.ts does, against the test app's database. */
  async function admin(...argv: string[]) {
    const run = await runAdminIn(t, argv);
    return { ...run, text: run.out.join('\n') };
  }

  const balance = (id: number) => coinsOf(db(), id);
  const member = (coins = 0) => memberWithCoins(t, coins, 'op');

  it('lists every command with --help and answers usage mistakes with exit code 2, without opening the database', async () => {
    const help = await admin('--help');
    expect(help.code).toBe(0);
    expect(help.out).toEqual(helpText());
    for (const name of [
      'coins:grant',
      'coins:ledger',
      'users:list',
      'users:show',
      'backup',
      'leaderboard:week',
      'memes:hide',
    ]) {
      expect(help.text).toContain(cliCommands[name]!.usage);
    }
    expect(help.opened).toBe(0);

    const none = await admin();
    expect(none.code).toBe(2);
    expect(none.err.join('\n')).toContain('Usage: npm run admin -- <command>');

    const unknown = await admin('coins:steal', 'bob');
    expect(unknown).toMatchObject({ code: 2, opened: 0 });
    expect(unknown.err).toEqual([
      'Unknown command "coins:steal". "npm run admin -- --help" lists the commands.',
    ]);

    const one = await admin('coins:grant', '--help');
    expect(one).toMatchObject({ code: 0, opened: 0 });
    expect(one.out[0]).toBe(
      'Usage: npm run admin -- coins:grant <username> <amount> [--reason TEXT]',
    );

    // Names that exist on every object are not commands.
    expect((await admin('constructor')).code).toBe(2);
  });

  it('grants coins with a reason, recorded in the ledger as an operator grant', async () => {
    const { user } = await member(10);
    const res = await admin(
      'coins:grant',
      user.username.toUpperCase(),
      '250',
      '--reason',
      'Contest winner, week 47',
    );
    expect(res.code, res.err.join('\n')).toBe(0);
    expect(res.out).toEqual([
      `Granted 250 coins to ${user.username} (Contest winner, week 47). Balance: 260.`,
    ]);
    expect(await balance(user.id)).toBe(260);
    const last = (await ledgerEntries(db(), user.id)).at(-1)!;
    expect(last).toMatchObject({
      reason: 'grant',
      delta: 250,
      balance_after: 260,
      note: 'Contest winner, week 47',
    });

    const plain = await admin('coins:grant', user.username, '5');
    expect(plain.code).toBe(0);
    expect((await ledgerEntries(db(), user.id)).at(-1)).toMatchObject({
      reason: 'grant',
      delta: 5,
      note: null,
    });
  });

  it('refuses bad grants with a clear message and changes nothing', async () => {
    const { user } = await member(10);
    const cases: Array<[string[], RegExp]> = [
      [['coins:grant'], /^Error: Missing <username> <amount>$/],
      [['coins:grant', user.username], /^Error: Missing <amount>$/],
      [['coins:grant', user.username, '0'], /whole number from 1/],
      [['coins:grant', user.username, '-5'], /Unknown option '-5'|unknown/i],
      [['coins:grant', user.username, '1.5'], /whole number/],
      [['coins:grant', user.username, '1e3'], /whole number/],
      [['coins:grant', user.username, 'ten'], /whole number/],
      [['coins:grant', user.username, '99999999999'], /whole number from 1 to 2147483647/],
      [['coins:grant', user.username, '5', 'extra'], /Unexpected argument "extra"/],
      [['coins:grant', user.username, '5', '--reason'], /argument missing/],
      [['coins:grant', user.username, '5', '--reason', '   '], /--reason must be 1 to 200/],
      [['coins:grant', user.username, '5', '--reason', 'two\nlines'], /--reason must be 1 to 200/],
      [['coins:grant', user.username, '5', '--why', 'x'], /Unknown option '--why'/],
      [['coins:grant', 'not a name!', '5'], /is not a username/],
    ];
    for (const [argv, message] of cases) {
      const res = await admin(...argv);
      expect(res.code, argv.join(' ')).toBe(2);
      expect(res.err[0], argv.join(' ')).toMatch(message);
      expect(res.err.at(-1)).toBe(
        'Usage: npm run admin -- coins:grant <username> <amount> [--reason TEXT]',
      );
    }
    const nobody = await admin('coins:grant', 'nobody_here', '5');
    expect(nobody).toMatchObject({ code: 1, out: ['No member named "nobody_here".'] });
    const overflow = await admin('coins:grant', user.username, '2147483640');
    expect(overflow.code).toBe(1);
    expect(overflow.text).toMatch(/largest balance is 2147483647/);
    expect(await balance(user.id)).toBe(10);
    expect(await ledgerEntries(db(), user.id)).toHaveLength(1);
  });

  it("prints a member's ledger with every source of coins and checks it against the balance", async () => {
    const { client, user } = await member();
    await admin('coins:grant', user.username, '120', '--reason', 'Welcome "bonus"');
    await creditCoins(db(), {
      userId: user.id,
      amount: 7,
      reason: 'game-run',
      runId: `admin-run-${user.id}`,
      now: t.clock.now(),
    });
    expect(
      (await client.request('POST', pathTo(shopPaths.purchase, { key: 'hardhat' }))).statusCode,
    ).toBe(200);

    const res = await admin('coins:ledger', user.username);
    expect(res.code).toBe(0);
    expect(res.out[0]).toBe(`Coin ledger of ${user.username} (member #${user.id}): 3 entries`);
    const rows = res.out.slice(2, 5);
    expect(rows[0]).toMatch(/2026-11-18 12:00:00 +\+120 +120 +grant +"Welcome \\"bonus\\""$/);
    expect(rows[1]).toMatch(new RegExp(`\\+7 +127 +game-run +run admin-run-${user.id}$`));
    expect(rows[2]).toMatch(/-50 +77 +purchase +character hardhat$/);
    expect(res.out.at(-1)).toBe('Balance 77 = ledger sum 77: consistent.');

    const latest = await admin('coins:ledger', user.username, '--limit', '1');
    expect(latest.out[1]).toBe('(showing the latest 1; --limit to see more)');
    expect(latest.out.filter((l) => /purchase|grant|game-run/.test(l))).toHaveLength(1);

    // Someone edits the balance behind the ledger's back: the audit says so.
    await db().updateTable('users').set({ coins: 1000 }).where('id', '=', user.id).execute();
    const tampered = await admin('coins:ledger', user.username);
    expect(tampered.code).toBe(1);
    expect(tampered.out.at(-1)).toBe('MISMATCH: balance 1000 but the ledger sums to 77.');
    expect((await admin('users:show', user.username)).code).toBe(1);

    expect((await admin('coins:ledger', user.username, '--limit', '0')).code).toBe(2);
    expect((await admin('coins:ledger')).code).toBe(2);
    expect((await admin('coins:ledger', 'nobody_here')).code).toBe(1);
  });

  it('lists members and shows one with balance, sources and characters', async () => {
    const { client, user } = await member(400);
    expect(
      (await client.request('POST', pathTo(shopPaths.purchase, { key: 'suit' }))).statusCode,
    ).toBe(200);
    expect(
      (await client.request('POST', pathTo(shopPaths.select, { key: 'suit' }))).statusCode,
    ).toBe(200);

    const list = await admin('users:list');
    expect(list.code).toBe(0);
    const line = list.out.find((l) => l.includes(` ${user.username} `));
    expect(line).toMatch(
      new RegExp(`^ +${user.id}  ${user.username} +200 +1  suit +2026-11-18 12:00:00$`),
    );
    expect(list.out.at(-1)).toMatch(/^\d+ members?\.$/);
    expect((await admin('users:list', 'extra')).code).toBe(2);

    const show = await admin('users:show', user.username);
    expect(show.code).toBe(0);
    expect(show.out).toEqual([
      `Member #${user.id}: ${user.username}`,
      'Joined:    2026-11-18 12:00:00 UTC',
      'Coins:     200 (ledger sum 200, consistent)',
      '  grant            400 in 1 entry',
      '  purchase        -200 in 1 entry',
      'Selected:  Executive',
      'Owned:     Office Worker (always)',
      '           Executive, since 2026-11-18 12:00:00 UTC',
    ]);
    expect((await admin('users:show')).code).toBe(2);
    expect((await admin('users:show', 'nobody_here')).code).toBe(1);
  });

  it("maps the game's and the gallery's usage errors to exit code 2 too", async () => {
    const game = await admin('leaderboard:week', '--bogus');
    expect(game.code).toBe(2);
    expect(game.err.at(-1)).toBe(
      `Usage: npm run admin -- ${cliCommands['leaderboard:week']!.usage}`,
    );
    const gallery = await admin('memes:hide', 'abc');
    expect(gallery.code).toBe(2);
    expect(gallery.err).toEqual([
      'Usage: npm run admin -- memes:hide <id> [--reason "text for the operator log"]',
    ]);
    expect((await admin('memes:hide', '999999')).code).toBe(1);
  });

  it('backs up: SQLite to a consistent copy, PostgreSQL by printing the pg_dump command', async () => {
    if (kind === 'sqlite') await backUpSqlite();
    else await printPgDump();
  });

  async function backUpSqlite() {
    const { user } = await member(33);
    const file = path.join(scratch, 'copy.db');
    const res = await admin('backup', file);
    expect(res.code, res.err.join('\n')).toBe(0);
    expect(res.out[0]).toMatch(
      new RegExp(`^Backed up to ${file} \\(\\d+ bytes, integrity ok, \\d+ members\\)\\.$`),
    );
    const copy = new SQLite(file, { readonly: true });
    try {
      expect(copy.prepare('SELECT coins FROM users WHERE id = ?').get(user.id)).toEqual({
        coins: 33,
      });
    } finally {
      copy.close();
    }
    expect((await admin('backup', file)).err[0]).toMatch(/already exists/);
    expect((await admin('backup', file)).code).toBe(2);
    expect((await admin('backup', path.join(scratch, 'no-such-dir', 'x.db'))).code).toBe(2);
    expect((await admin('backup', t.config.dataDir + '/app.db')).code).toBe(2);
    expect((await admin('backup')).code).toBe(2);
  }

  async function printPgDump() {
    const original = t.config.database;
    t.config.database = {
      kind: 'postgres',
      url: 'postgres://grind:s3cret-pass@db.internal:5432/grind',
    };
    try {
      const res = await admin('backup', path.join(scratch, 'grind.dump'));
      expect(res.code).toBe(0);
      expect(res.text).toContain(
        `pg_dump --format=custom --no-owner --no-acl --file="${path.join(scratch, 'grind.dump')}" --dbname="$DATABASE_URL"`,
      );
      expect(res.text).toContain(
        'pg_restore --no-owner --no-acl --dbname="$DATABASE_MIGRATION_URL"',
      );
      expect(res.text).not.toContain('s3cret');
      expect(fs.existsSync(path.join(scratch, 'grind.dump'))).toBe(false);
    } finally {
      t.config.database = original;
    }
  }
});
