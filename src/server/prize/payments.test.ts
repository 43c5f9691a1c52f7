import { runAdminIn } from '#test-support/admin-cli.ts';
import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Address, KeyPairSigner } from '@solana/kit';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { LIVE_EVENTS_PATH } from '#shared/api/live.ts';
import { chainPaths, type BurnsResponse, type PaymentStatus } from '#shared/api/chain.ts';
import type { GiveawayWinner } from '#shared/api/game.ts';
import { gamePaths } from '#shared/api/paths.ts';
import { defaultSite } from '#shared/site.ts';
import {
  burnTokens,
  createTestMint,
  freshAddress,
  fundedSigner,
  LAMPORTS_PER_SOL,
  prizeTransfer,
  TOKEN_2022_PROGRAM_ADDRESS,
  tokenAccount,
  tokenTransfer,
} from '#test-support/chain-transactions.ts';
import { EventStreamReader } from '#test-support/event-stream.ts';
import { approveWeek } from '#test-support/prize-weeks.ts';
import { TestChain } from '#test-support/test-chain.ts';
import { createTestApp, uniqueName, type TestApp } from '#test-support/test-app.ts';
import { TestClient } from '#test-support/test-client.ts';
import { databaseKinds } from '#test-support/test-database.ts';
import type { AppConfig } from '../config.ts';
import { operator as asOperator, passkeySignIn, type Operator } from '#test-support/operators.ts';
import { PENDING_EXPIRY_MS } from './payments.ts';
import { appendPrizeEvent, weekEvents } from './repository.ts';

const PRIZE = LAMPORTS_PER_SOL; // the default site's "1 SOL"

/**
 * The console's payment and burn endpoints and the CLI, against real transactions executed in
 * LiteSVM and read through the test RPC, on both databases. The console's operator guard comes
 * with the console; these register the plugins behind a stand-in guard the way the console will.
 */
describe.each(databaseKinds)('prize payments and burns verified on chain, on %s', (kind) => {
  const chain = new TestChain(() => t.clock.now());
  let t: TestApp;
  let siteMint: Address;
  let signedIn: Operator;
  let operator: TestClient;
  let member: TestClient;
  const solana = (extra: Partial<AppConfig['solana']> = {}): AppConfig['solana'] => ({
    rpcUrl: chain.url,
    timeoutMs: 1_000,
    treasury: [],
    ...extra,
  });

  beforeAll(async () => {
    await chain.start();
    siteMint = await freshAddress();
    const siteFile = path.join(tmpdir(), `chain-site-${process.pid}-${kind}.json`);
    writeFileSync(siteFile, JSON.stringify({ contractAddress: siteMint }));
    t = await createTestApp(kind, { solana: solana(), siteConfigFile: siteFile });
    signedIn = await asOperator(t, 'admin', { passkey: true });
    operator = signedIn.client;
    member = TestClient.inject(t.app);
    await member.register(uniqueName('member'));
  });
  afterAll(async () => {
    await t?.close();
    await chain.stop();
  });
  // Tests move the clock past the console's 15-minute passkey window: the admin signs in with
  // the passkey again, as the console asks.
  beforeEach(async () => {
    expect((await passkeySignIn(operator, signedIn.authenticator)).statusCode).toBe(200);
  });

  const db = () => t.app.deps.db;
  let origin: string | undefined;
  /** An open page's stream of live events. */
  const liveStream = async () =>
    EventStreamReader.open(`${(origin ??= await t.listen())}${LIVE_EVENTS_PATH}`);
  const winnersOf = (week: string) => (e: { type: string; data: unknown }) =>
    e.type === 'winners' && (e.data as { week: string }).week === week;
  const steps = async (week: string) => (await weekEvents(db(), week)).map((e) => e.step);
  let weekNumber = 10;
  /** A week approved for a fresh wallet, as prize:approve records it. */
  const approvedWeek = () =>
    approveWeek(db(), `2026-W${String(weekNumber++).padStart(2, '0')}`, t.clock.now());

  const paymentPath = (week: string) => chainPaths.payment.replace(':week', week);
  const confirmPath = (week: string) => chainPaths.confirmPayment.replace(':week', week);
  async function prepare(week: string): Promise<PaymentStatus> {
    const res = await operator.request('POST', paymentPath(week));
    expect(res.statusCode, res.body).toBe(200);
    return res.json<PaymentStatus>();
  }
  const confirm = (week: string, signature?: string) =>
    operator.request('POST', confirmPath(week), { body: signature ? { signature } : {} });

  async function pay(
    p: PaymentStatus,
    change: Partial<{ to: string; lamports: bigint; reference?: string; memo?: string }> = {},
    payer?: KeyPairSigner,
  ): Promise<string> {
    return chain.send(
      await prizeTransfer(chain, payer ?? (await fundedSigner(chain)), {
        to: p.recipient,
        lamports: BigInt(p.lamports),
        reference: p.reference!,
        memo: p.memo!,
        ...change,
      }),
    );
  }

  async function admin(config: Partial<AppConfig>, ...argv: string[]) {
    const { code, text } = await runAdminIn(t, argv, {
      config: { solana: solana(), ...config },
      site: { ...defaultSite, contractAddress: siteMint },
    });
    return { code, text };
  }

  /** The refusal, and that nothing was recorded: the week is still pending. */
  async function expectRefused(
    week: string,
    res: { statusCode: number; json<T>(): T },
    status: number,
    code: string,
  ) {
    expect(res.statusCode).toBe(status);
    expect(res.json<{ code: string }>().code).toBe(code);
    expect(await steps(week)).toEqual(['approved', 'pending']);
  }

  it('answers only admins with a fresh passkey', async () => {
    const { week } = await approvedWeek();
    expect((await member.request('POST', paymentPath(week))).statusCode).toBe(403);
    const moderator = (await asOperator(t, 'moderator', { passkey: true })).client;
    const refused = await moderator.request('POST', paymentPath(week));
    expect(refused.json()).toMatchObject({ code: 'ADMIN_ONLY' });
    const noPasskey = (await asOperator(t, 'admin')).client;
    const stale = await noPasskey.request('POST', chainPaths.recordBurn, {
      body: { signature: '1'.repeat(64) },
    });
    expect(stale.json()).toMatchObject({ code: 'PASSKEY_REQUIRED' });
    expect((await TestClient.inject(t.app).request('GET', paymentPath(week))).statusCode).toBe(401);
    expect(await steps(week)).toEqual(['approved']);
  });

  it('pays the week: prepared with a fresh reference, found by it at finalized, verified, then paid', async () => {
    const { week, winner } = await approvedWeek();
    const prepared = await prepare(week);
    expect(prepared).toMatchObject({
      week,
      state: 'pending',
      recipient: winner,
      lamports: String(PRIZE),
      memo: `Daily Grind prize ${week}`,
      reference: expect.stringMatching(/^[1-9A-HJ-NP-Za-km-z]{32,44}$/),
    });
    // Asked again while pending: the same reference, so two consoles cannot pay twice.
    expect((await prepare(week)).reference).toBe(prepared.reference);
    const signature = await pay(prepared);
    const reader = await liveStream();
    const res = await confirm(week, signature);
    expect(res.statusCode, res.body).toBe(200);
    // Open pages refetch Recent Winners.
    await reader.next(winnersOf(week));
    reader.close();
    const paid = res.json<PaymentStatus>();
    expect(paid).toMatchObject({
      state: 'paid',
      signature,
      slot: expect.stringMatching(/^\d+$/),
      blockTime: new Date(Math.floor(t.clock.now() / 1000) * 1000).toISOString(),
      explorerUrl: `https://solscan.io/tx/${signature}`,
    });
    expect(await steps(week)).toEqual(['approved', 'pending', 'paid']);
    const winners = (await member.request('GET', gamePaths.winners)).json<GiveawayWinner[]>();
    expect(winners.find((w) => w.week === week)).toMatchObject({
      verified: true,
      signature,
      slot: paid.slot,
      amount: String(PRIZE),
      recipient: winner,
    });
    // Paid: preparing again is refused.
    const again = await operator.request('POST', paymentPath(week));
    expect(again.json()).toMatchObject({ code: 'PRIZE_ALREADY_PAID' });
  });

  it('refuses a transfer to another wallet, and records nothing', async () => {
    const { week } = await approvedWeek();
    const p = await prepare(week);
    await pay(p, { to: await freshAddress() });
    await expectRefused(week, await confirm(week), 422, 'TX_WRONG_RECIPIENT');
  });

  it('refuses a short amount', async () => {
    const { week } = await approvedWeek();
    const p = await prepare(week);
    await pay(p, { lamports: PRIZE - 1n });
    await expectRefused(week, await confirm(week), 422, 'TX_SHORT_AMOUNT');
  });

  it('refuses a failed transaction', async () => {
    const { week } = await approvedWeek();
    const p = await prepare(week);
    const poor = await fundedSigner(chain, 0n);
    chain.airdrop(poor.address, PRIZE / 2n);
    await pay(p, {}, poor);
    await expectRefused(week, await confirm(week), 422, 'TX_FAILED');
  });

  it('refuses a transaction without the memo, and one without the reference (by the CLI)', async () => {
    let { week } = await approvedWeek();
    let p = await prepare(week);
    await pay(p, { memo: 'Daily Grind prize' });
    await expectRefused(week, await confirm(week), 422, 'TX_NO_MEMO');

    ({ week } = await approvedWeek());
    p = await prepare(week);
    const signature = await pay(p, { reference: await freshAddress() });
    // Not found by its reference: still pending.
    expect((await confirm(week)).json()).toMatchObject({ state: 'pending' });
    const r = await admin({}, 'prize:paid', '--week', week, '--tx', signature);
    expect(r).toEqual({
      code: 1,
      text: expect.stringMatching(
        /^Refused: .* does not carry the payment's reference key .*Nothing recorded\.$/,
      ),
    });
    expect(await steps(week)).toEqual(['approved', 'pending']);
  });

  it('refuses a transfer of another token with the reference and memo', async () => {
    const { week, winner } = await approvedWeek();
    const p = await prepare(week);
    const owner = await fundedSigner(chain);
    const other = await createTestMint(chain, owner);
    const winnersAccount = await tokenAccount(chain, other, winner);
    chain.send(
      await tokenTransfer(chain, other, winnersAccount, 1_000_000_000n, {
        reference: p.reference!,
        memo: p.memo!,
        alsoNaming: winner,
      }),
    );
    await expectRefused(week, await confirm(week), 422, 'TX_WRONG_RECIPIENT');
  });

  it('refuses a payer outside PRIZE_TREASURY (by the CLI)', async () => {
    const { week } = await approvedWeek();
    const p = await prepare(week);
    const signature = await pay(p);
    const treasury = await freshAddress();
    const r = await admin(
      { solana: solana({ treasury: [treasury] }) },
      'prize:paid',
      '--week',
      week,
      '--tx',
      signature,
    );
    expect(r).toEqual({ code: 1, text: expect.stringMatching(/is not in PRIZE_TREASURY/) });
    expect(await steps(week)).toEqual(['approved', 'pending']);
  });

  it('refuses a signature already recorded for another week', async () => {
    const first = await approvedWeek();
    const signature = await pay(await prepare(first.week));
    expect((await admin({}, 'prize:paid', '--week', first.week, '--tx', signature)).code).toBe(0);
    const second = await approvedWeek();
    await prepare(second.week);
    const r = await admin({}, 'prize:paid', '--week', second.week, '--tx', signature);
    expect(r).toEqual({
      code: 1,
      text: expect.stringMatching(`is already recorded as the payment of ${first.week}`),
    });
    expect(await steps(second.week)).toEqual(['approved', 'pending']);
  });

  it('waits for finalized: nothing recorded while confirmed; the scheduler records it once finalized', async () => {
    const { week } = await approvedWeek();
    const p = await prepare(week);
    chain.finalizeNew = false;
    const signature = await pay(p);
    chain.finalizeNew = true;
    const res = await confirm(week, signature);
    expect(res.json()).toMatchObject({
      state: 'pending',
      detail: expect.stringMatching(/is confirmed, not finalized yet/),
    });
    const cli = await admin({}, 'prize:paid', '--week', week, '--tx', signature);
    expect(cli).toEqual({ code: 1, text: expect.stringMatching(/not finalized yet/) });
    await t.app.maintenance.runAll();
    expect(await steps(week)).toEqual(['approved', 'pending']);
    chain.finalize(signature);
    const reader = await liveStream();
    await t.app.maintenance.runAll();
    expect(await steps(week)).toEqual(['approved', 'pending', 'paid']);
    // Paid by the scheduler, with nobody in the console: open pages still hear of it.
    await reader.next(winnersOf(week));
    reader.close();
    expect((await operator.request('GET', paymentPath(week))).json()).toMatchObject({
      state: 'paid',
      signature,
    });
  });

  it('answers 503 when the RPC is down or slow, records nothing, and tries again later', async () => {
    const { week } = await approvedWeek();
    const p = await prepare(week);
    await pay(p);
    for (const mode of ['down', 'slow'] as const) {
      chain.mode = mode;
      chain.slowMs = 3_000;
      await expectRefused(week, await confirm(week), 503, 'CHAIN_UNAVAILABLE');
      await t.app.maintenance.runAll();
      expect(await steps(week)).toEqual(['approved', 'pending']);
    }
    chain.mode = 'up';
    await t.app.maintenance.runAll();
    expect(await steps(week)).toEqual(['approved', 'pending', 'paid']);
  });

  it('expires a payment that never lands, with the reason; a new one can be prepared', async () => {
    const { week } = await approvedWeek();
    const first = await prepare(week);
    t.clock.advance(PENDING_EXPIRY_MS + 1);
    await t.app.maintenance.runAll();
    expect(await steps(week)).toEqual(['approved', 'pending', 'expired']);
    await passkeySignIn(operator, signedIn.authenticator);
    expect((await operator.request('GET', paymentPath(week))).json()).toMatchObject({
      state: 'expired',
      detail: expect.stringMatching(
        `no finalized transaction carried reference ${first.reference}`,
      ),
    });
    const second = await prepare(week);
    expect(second.reference).not.toBe(first.reference);
    await pay(second);
    expect((await confirm(week)).json()).toMatchObject({ state: 'paid' });
  });

  it('records a burn of the site mint (SPL Token burn, Token-2022 burnChecked) and shows only verified burns', async () => {
    const before = (await member.request('GET', chainPaths.burns)).json<BurnsResponse>();
    expect(before).toEqual({ burns: [], totalBurned: null, decimals: null });
    const owner = await fundedSigner(chain);
    const grind = await createTestMint(chain, owner, { mint: siteMint, decimals: 6 });
    const first = chain.send(await burnTokens(chain, grind, 1_500_000n));
    const reader = await liveStream();
    let res = await operator.request('POST', chainPaths.recordBurn, { body: { signature: first } });
    expect(res.statusCode, res.body).toBe(201);
    // The stream announces the recorded burn, so the giveaway's burn panel refetches.
    const announced = await reader.next((e) => e.type === 'burns');
    reader.close();
    expect(announced.data).toEqual({ signature: first });
    expect(res.json()).toMatchObject({ signature: first, amount: '1500000', decimals: 6 });
    res = await operator.request('POST', chainPaths.recordBurn, { body: { signature: first } });
    expect(res.json()).toMatchObject({ code: 'TX_ALREADY_RECORDED' });

    // The same mint address under Token-2022 in a second runtime account is not possible, so
    // burnChecked goes through the CLI on the same mint.
    const second = chain.send(await burnTokens(chain, grind, 2_000_000n, true));
    const r = await admin({}, 'burns:record', second);
    expect(r).toEqual({
      code: 0,
      text: expect.stringMatching(/^Verified and recorded: 2 \$GRIND burned/),
    });

    const after = (await member.request('GET', chainPaths.burns)).json<BurnsResponse>();
    expect(after).toMatchObject({
      totalBurned: '3500000',
      decimals: 6,
      burns: [
        { signature: second, amount: '2000000' },
        { signature: first, amount: '1500000' },
      ],
    });
    expect(after.burns[0]).toMatchObject({
      slot: expect.stringMatching(/^\d+$/),
      explorerUrl: `https://solscan.io/tx/${second}`,
    });
  });

  it('refuses a burn of another mint, a transaction that burns nothing, one not finalized, and an RPC that is down', async () => {
    const owner = await fundedSigner(chain);
    const other = await createTestMint(chain, owner, { program: TOKEN_2022_PROGRAM_ADDRESS });
    const otherBurn = chain.send(await burnTokens(chain, other, 10n, true));
    const total = async () =>
      (await member.request('GET', chainPaths.burns)).json<BurnsResponse>().totalBurned;
    const before = await total();
    const record = (signature: string) =>
      operator.request('POST', chainPaths.recordBurn, { body: { signature } });
    expect((await record(otherBurn)).json()).toMatchObject({ code: 'TX_WRONG_MINT' });

    const payer = await fundedSigner(chain);
    const transfer = chain.send(
      await prizeTransfer(chain, payer, { to: await freshAddress(), lamports: PRIZE }),
    );
    expect((await record(transfer)).json()).toMatchObject({ code: 'TX_NOT_A_BURN' });

    const grind = await createTestMint(chain, owner, { mint: siteMint });
    chain.finalizeNew = false;
    const pendingBurn = chain.send(await burnTokens(chain, grind, 1n));
    chain.finalizeNew = true;
    expect((await record(pendingBurn)).json()).toMatchObject({ code: 'TX_NOT_FINALIZED' });

    chain.mode = 'down';
    const res = await record(otherBurn);
    chain.mode = 'up';
    expect(res.statusCode).toBe(503);
    expect(res.json()).toMatchObject({ code: 'CHAIN_UNAVAILABLE' });
    expect(await total()).toBe(before);
  });
});

describe.each(databaseKinds)('without SOLANA_RPC_URL, on %s', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(kind);
  });
  afterAll(() => t.close());

  it('records no payment, and says how to set one', async () => {
    const week = '2026-W40';
    await appendPrizeEvent(t.app.deps.db, {
      week_id: week,
      step: 'approved',
      user_id: 1,
      player_name: 'Winner',
      wallet_address: await freshAddress(),
      prize: '1 SOL',
      created_at: t.clock.now(),
    });
    const { client: operator } = await asOperator(t, 'admin', { passkey: true });
    const res = await operator.request('POST', chainPaths.payment.replace(':week', week));
    expect(res.statusCode).toBe(503);
    expect(res.json()).toEqual({
      code: 'CHAIN_NOT_CONFIGURED',
      message: expect.stringMatching(/set SOLANA_RPC_URL/),
    });
    const { code, text } = await runAdminIn(t, [
      'prize:paid',
      '--week',
      week,
      '--tx',
      '1'.repeat(64),
    ]);
    expect({ code, text }).toEqual({
      code: 1,
      text: expect.stringMatching(/set SOLANA_RPC_URL/),
    });
    expect((await weekEvents(t.app.deps.db, week)).map((e) => e.step)).toEqual(['approved']);
  });
});
