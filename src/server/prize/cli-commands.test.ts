import { runAdminIn } from '#test-support/admin-cli.ts';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import type { GiveawayWinner, LeaderboardEntry } from '#shared/api/game.ts';
import type { WalletChallenge } from '#shared/api/wallet.ts';
import { isoWeekId, WEEK_MS } from '#shared/time.ts';
import { storeHonestEntry } from '#test-support/honest-run.ts';
import { suiteApp, uniqueName } from '#test-support/test-app.ts';
import { TestClient } from '#test-support/test-client.ts';
import { createTestDatabase, databaseKinds } from '#test-support/test-database.ts';
import { fakeTransactionSignature, TestWallet } from '#test-support/test-wallet.ts';
import { TestChain } from '#test-support/test-chain.ts';
import { fundedSigner, prizeTransfer } from '#test-support/chain-transactions.ts';
import { afterAll, beforeAll } from 'vitest';
import { createDatabase } from '../db/create-database.ts';
import { createMigrator } from '../db/migrate.ts';
import { machineSigns } from '#shared/game/run-statistics.ts';
import { paidWeeks, weekEvents } from './repository.ts';
import { gamePaths, walletPaths } from '#shared/api/paths.ts';

describe.each(databaseKinds)('the weekly prize, reviewed, approved and paid, on %s', (kind) => {
  const t = suiteApp(kind);
  const db = () => t.app.deps.db;
  // Payments are verified on chain: real transfers in LiteSVM behind the test RPC.
  const chain = new TestChain(() => t.clock.now());
  beforeAll(() => chain.start());
  afterAll(() => chain.stop());

  /** Prepares the week's payment and sends it on chain as the console would; its signature. */
  async function payOnChain(week: string): Promise<string> {
    const prepared = await admin('prize:prepare', '--week', week);
    expect(prepared.code, prepared.text).toBe(0);
    const pending = (await weekEvents(db(), week)).findLast((e) => e.step === 'pending')!;
    const payer = await fundedSigner(chain);
    return chain.send(
      await prizeTransfer(chain, payer, {
        to: pending.wallet_address!,
        lamports: BigInt(pending.lamports!),
        reference: pending.reference!,
        memo: pending.memo!,
      }),
    );
  }

  /** One command line, the way the CLI runs it; its exit code and what it printed. */
  async function admin(...argv: string[]) {
    const { code, text } = await runAdminIn(t, argv, {
      config: {
        solana: { cluster: 'mainnet-beta', rpcUrl: chain.url, timeoutMs: 2000, treasury: [] },
      },
    });
    return { code, text };
  }

  /** A leaderboard entry whose run really replays (the autopilot's), stored as the game does. */
  async function seedEntry(userId: number | null, playerName: string, targetSteps: number) {
    const at = t.clock.now();
    const { runId, entryId, run } = await storeHonestEntry(db(), {
      userId,
      playerName,
      targetSteps,
      at,
    });
    return { runId, entryId, score: run.result.score, statistics: run.statistics };
  }

  /** The member links `wallet` (TestClient.register's password); the answer's status. */
  async function linkWallet(client: TestClient, wallet: TestWallet, status = 200) {
    const issued = (await client.request('POST', walletPaths.challenge)).json<WalletChallenge>();
    const res = await client.request('POST', walletPaths.link, {
      body: { ...wallet.signIn(issued), password: 'password123' },
    });
    expect(res.statusCode, res.body).toBe(status);
    return res;
  }

  const weekSteps = async (week: string) =>
    (
      await db()
        .selectFrom('prize_events')
        .select('step')
        .where('week_id', '=', week)
        .orderBy('id')
        .execute()
    ).map((e) => e.step);

  const events = async () =>
    db().selectFrom('prize_events').select(['step', 'run_id']).orderBy('id').execute();

  it('pays only a reviewed, approved run of a member with a proven wallet; a visitor tops the board unpaid', async () => {
    const aliceClient = TestClient.inject(t.app);
    const alice = await aliceClient.register(uniqueName('Alice'));
    const bob = await TestClient.inject(t.app).register(uniqueName('Bob'));
    const visitorName = uniqueName('Vera');
    const vera = await seedEntry(null, visitorName, 1500);
    const aliceRun = await seedEntry(alice.id, alice.username, 700);
    const bobRun = await seedEntry(bob.id, bob.username, 400);
    expect(vera.score).toBeGreaterThan(aliceRun.score);
    const firstWallet = new TestWallet();
    await linkWallet(aliceClient, firstWallet);

    // The visitor's score is on the public board, first.
    const board = (await aliceClient.request('GET', gamePaths.leaderboard)).json<
      LeaderboardEntry[]
    >();
    expect(board[0]?.playerName).toBe(visitorName);

    // Nothing can be paid before an approval, nor approved while the week runs.
    const signature = fakeTransactionSignature();
    let r = await admin('prize:paid', '--week', '2026-W47', '--tx', signature);
    expect(r).toEqual({ code: 1, text: expect.stringMatching(/no run is approved for 2026-W47/) });
    r = await admin('prize:approve', '--week', '2026-W47', `--run=${aliceRun.runId}`);
    expect(r).toEqual({ code: 1, text: expect.stringMatching(/2026-W47 is still open/) });
    expect(await events()).toEqual([]);

    t.clock.advance(WEEK_MS);
    r = await admin('prize:approve', '--week', '2026-W47', `--run=${aliceRun.runId}`);
    expect(r).toEqual({
      code: 1,
      text: expect.stringMatching(/has not been through prize:review/),
    });

    // Review (last week by default): who can be paid, the figures, and where to watch each run.
    r = await admin('prize:review');
    expect(r.code).toBe(0);
    const lines = r.text.split('\n');
    expect(lines[0]).toMatch(
      /^Weekly prize 2026-W47: 2026-11-16 00:00:00 to 2026-11-23 00:00:00 UTC$/,
    );
    const rowOf = (name: string) => lines.find((l) => l.includes(` ${name} `))!;
    expect(rowOf(visitorName)).toMatch(
      new RegExp(`^  1  ${visitorName} +${vera.score} .* no: visitor \\(no account\\)$`),
    );
    expect(rowOf(alice.username)).toMatch(
      new RegExp(`^  2  .* yes: wallet ${firstWallet.address}$`),
    );
    expect(rowOf(bob.username)).toMatch(/no: member without a linked wallet$/);
    // Under each run: its ids, the address that opens its replay, its statistics and signs.
    for (const run of [vera, aliceRun, bobRun]) {
      const at = lines.findIndex((l) =>
        l.startsWith(`     run ${run.runId}  entry #${run.entryId}`),
      );
      expect(at, `no line for run ${run.runId}`).toBeGreaterThan(0);
      expect(lines[at]).toMatch(
        new RegExp(`  watch http://localhost:${t.config.port}/#replay-${run.entryId}$`),
      );
      const s = run.statistics;
      expect(s.jumps).toBeGreaterThan(0);
      expect(lines[at + 1]).toBe(
        `     statistics: ${s.jumps} jumps · interval median ${s.jumpIntervalMedianMs} ms, spread (CV) ${s.jumpIntervalCv} · aim spread ${s.aimSpreadPx} px · edge margin min ${s.edgeMarginMinPx} / median ${s.edgeMarginMedianPx} px · reaction median ${s.reactionMedianMs} ms (${Math.round(s.fastReactionShare * 100)} % under 100 ms) · top speed ${s.topSpeed}`,
      );
      const signs = machineSigns(s).map((sign) => sign.label);
      expect(lines[at + 2]).toBe(
        `     machine-like signs: ${signs.length === 0 ? 'none' : signs.join('; ')}`,
      );
    }
    expect(lines.at(-1)).toBe(
      `Best payable run: ${alice.username} with ${aliceRun.score}. Watch its replay, then: npm run admin -- prize:approve --week 2026-W47 --run=${aliceRun.runId}`,
    );
    expect(await events()).toEqual([{ step: 'reviewed', run_id: aliceRun.runId }]);

    // A visitor's run, a member without a wallet, a run of another week: not payable.
    r = await admin('prize:approve', '--week', '2026-W47', `--run=${vera.runId}`);
    expect(r).toEqual({
      code: 1,
      text: expect.stringMatching(/visitor's .* the prize goes to members with a linked wallet/),
    });
    r = await admin('prize:approve', '--week', '2026-W47', `--run=${bobRun.runId}`);
    expect(r).toEqual({ code: 1, text: expect.stringMatching(/has not linked a wallet/) });
    r = await admin('prize:approve', '--week', '2026-W46', `--run=${aliceRun.runId}`);
    expect(r).toEqual({
      code: 1,
      text: expect.stringMatching(/has no leaderboard entry in 2026-W46/),
    });
    expect(await events()).toHaveLength(1);

    r = await admin('prize:approve', '--week', '2026-W47', `--run=${aliceRun.runId}`);
    expect(r.code).toBe(0);
    expect(r.text).toContain(`Note: ${visitorName} placed first with ${vera.score}`);
    expect(r.text).toContain(`Pay 1 SOL to ${firstWallet.address}`);

    // The signature must look like one; usage mistakes exit 2 and record nothing.
    for (const tx of ['abc', signature.slice(0, 40), `${signature}0`, 'https://solscan.io/tx/x']) {
      r = await admin('prize:paid', '--week', '2026-W47', '--tx', tx);
      expect(r).toEqual({ code: 2, text: expect.stringMatching(/base58 of 64 bytes/) });
    }
    expect((await admin('prize:paid', '--tx', signature)).code).toBe(2);

    // The audit's switch: once approved, the payment may be on its way to the first wallet,
    // so Alice cannot change wallets and the week is not approved again.
    const secondWallet = new TestWallet();
    const locked = await linkWallet(aliceClient, secondWallet, 409);
    expect(locked.json()).toEqual({
      message: expect.stringMatching(
        /^Your prize for 2026-W47 is being paid to \S+; you can change your wallet once it is paid$/,
      ),
      code: 'PRIZE_PAYMENT_PENDING',
    });
    r = await admin('prize:approve', '--week', '2026-W47', `--run=${aliceRun.runId}`);
    expect(r).toEqual({
      code: 1,
      text: expect.stringMatching(
        new RegExp(`2026-W47 is already approved .*wallet ${firstWallet.address}.*prize:paid`),
      ),
    });
    expect(r.text).not.toMatch(/approve (the run )?again/);

    // A signature the chain does not know is refused; the real payment is verified.
    r = await admin('prize:paid', '--week', '2026-W47', '--tx', signature);
    expect(r).toEqual({
      code: 1,
      text: expect.stringMatching(/no payment is prepared for 2026-W47/),
    });
    const paidWith = await payOnChain('2026-W47');
    r = await admin('prize:paid', '--week', '2026-W47', '--tx', signature);
    expect(r).toEqual({ code: 1, text: expect.stringMatching(/knows no transaction/) });
    r = await admin('prize:paid', '--week', '2026-W47', '--tx', paidWith);
    expect(r.code, r.text).toBe(0);
    expect(r.text).toContain(`paid to ${alice.username} (${firstWallet.address})`);
    r = await admin('prize:paid', '--week', '2026-W47', '--tx', fakeTransactionSignature());
    expect(r).toEqual({ code: 1, text: expect.stringMatching(/2026-W47 is already paid/) });
    r = await admin('prize:approve', '--week', '2026-W47', `--run=${aliceRun.runId}`);
    expect(r).toEqual({ code: 1, text: expect.stringMatching(/already paid/) });
    // A paid run stays: it cannot be disqualified, nor its approval withdrawn.
    r = await admin('prize:disqualify', `--run=${aliceRun.runId}`, '--reason', 'found a bot');
    expect(r).toEqual({
      code: 1,
      text: expect.stringMatching(/a paid run cannot be disqualified/),
    });
    r = await admin('prize:withdraw', '--week', '2026-W47', '--reason', 'second thoughts');
    expect(r).toEqual({ code: 1, text: expect.stringMatching(/cannot be withdrawn/) });
    expect((await events()).map((e) => e.step)).toEqual([
      'reviewed',
      'approved',
      'pending',
      'paid',
    ]);
    // Paid: the wallet is hers to change again.
    await linkWallet(aliceClient, secondWallet);

    const winners = (await aliceClient.request('GET', gamePaths.winners)).json<GiveawayWinner[]>();
    expect(winners).toEqual([
      {
        id: expect.any(Number),
        week: '2026-W47',
        playerName: alice.username,
        prize: '1 SOL',
        wallet: firstWallet.address,
        txUrl: `https://solscan.io/tx/${paidWith}`,
        paidAt: new Date(t.clock.now()).toISOString(),
        verified: true,
        signature: paidWith,
        slot: expect.stringMatching(/^\d+$/),
        amount: '1000000000',
        recipient: firstWallet.address,
      },
    ]);
  });

  it('keeps the record append-only: no update, no delete (src/server/db/append-only.test.ts)', async () => {
    const before = await db().selectFrom('prize_events').selectAll().orderBy('id').execute();
    expect(before.length).toBeGreaterThan(0);
    // PostgreSQL's app role is not granted the change; SQLite's triggers refuse it.
    const refused = /append-only|permission denied/;
    await expect(
      db().updateTable('prize_events').set({ wallet_address: 'someone-else' }).execute(),
    ).rejects.toThrow(refused);
    await expect(db().deleteFrom('prize_events').execute()).rejects.toThrow(refused);
    if (kind === 'postgres') {
      await expect(sql`truncate prize_events`.execute(db())).rejects.toThrow(refused);
    }
    expect(await db().selectFrom('prize_events').selectAll().orderBy('id').execute()).toEqual(
      before,
    );
  });

  it('records one payment per week when two operators pay at once', async () => {
    const client = TestClient.inject(t.app);
    const carol = await client.register(uniqueName('Carol'));
    await linkWallet(client, new TestWallet());
    const run = await seedEntry(carol.id, carol.username, 500);
    t.clock.advance(WEEK_MS);
    expect((await admin('prize:review', '--week', '2026-W48')).code).toBe(0);
    expect((await admin('prize:approve', '--week', '2026-W48', `--run=${run.runId}`)).code).toBe(0);
    const paidWith = await payOnChain('2026-W48');
    const results = await Promise.all(
      [1, 2, 3].map(() => admin('prize:paid', '--week', '2026-W48', '--tx', paidWith)),
    );
    expect(results.map((x) => x.code).sort()).toEqual([0, 1, 1]);
    const paid = await paidWeeks(db(), 10);
    expect(paid.map((p) => p.week_id)).toEqual(['2026-W48', '2026-W47']);
  });

  it('warns and asks for --confirm-wallet when the wallet changed after the review', async () => {
    const client = TestClient.inject(t.app);
    const dan = await client.register(uniqueName('Dan'));
    const reviewedWallet = new TestWallet();
    await linkWallet(client, reviewedWallet);
    const run = await seedEntry(dan.id, dan.username, 600);
    t.clock.advance(WEEK_MS);
    const week = isoWeekId(t.clock.now() - WEEK_MS);
    expect((await admin('prize:review', '--week', week)).code).toBe(0);

    const newWallet = new TestWallet();
    await linkWallet(client, newWallet);
    const approve = (...flags: string[]) =>
      admin('prize:approve', '--week', week, `--run=${run.runId}`, ...flags);
    let r = await approve();
    expect(r).toEqual({
      code: 1,
      text: expect.stringMatching(
        new RegExp(
          `^Refused: ${dan.username}'s wallet is now ${newWallet.address}, not ${reviewedWallet.address} as the review showed .* then confirm ${newWallet.address}\\. Nothing recorded\\.$`,
        ),
      ),
    });
    // A flag naming another address is no confirmation.
    r = await approve(`--confirm-wallet=${reviewedWallet.address}`);
    expect(r.code).toBe(1);
    expect(await weekSteps(week)).toEqual(['reviewed']);

    r = await approve(`--confirm-wallet=${newWallet.address}`);
    expect(r.code, r.text).toBe(0);
    expect(r.text).toContain(
      `Warning: the wallet changed since the review (${reviewedWallet.address} then, ${newWallet.address} now)`,
    );
    expect(r.text).toContain(`Pay 1 SOL to ${newWallet.address}`);
    expect(await weekSteps(week)).toEqual(['reviewed', 'approved']);
  });
});

describe.each(databaseKinds)('migration 010 on %s', (kind) => {
  it("carries winners:add's payments into the prize record", async () => {
    const testDb = await createTestDatabase(kind);
    const db = createDatabase(testDb.owner);
    try {
      const migrator = createMigrator(db);
      expect((await migrator.migrateTo('006-standings-index')).error).toBeUndefined();
      await sql`insert into giveaway_winners (week_id, player_name, prize, tx_url, paid_at)
        values ('2026-W40', 'Ann', '1 SOL', 'https://solscan.io/tx/5abc', 1000)`.execute(db);
      expect((await migrator.migrateToLatest()).error).toBeUndefined();
      const paid = await paidWeeks(db as never, 10);
      expect(paid).toMatchObject([
        {
          week_id: '2026-W40',
          step: 'paid',
          player_name: 'Ann',
          prize: '1 SOL',
          tx_url: 'https://solscan.io/tx/5abc',
          tx_signature: null,
          wallet_address: null,
          created_at: 1000,
        },
      ]);
    } finally {
      await db.destroy();
      await testDb.drop();
    }
  });
});
