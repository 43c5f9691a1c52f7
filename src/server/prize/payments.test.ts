import { runAdminIn } from '#test-support/admin-cli.ts';
import { rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { base58 } from '@scure/base';
import type { Address, KeyPairSigner } from '@solana/kit';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { consolePaths } from '#shared/api/console/common.ts';
import type { LogEntry } from '#shared/api/console/log.ts';
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
import { CONSOLE_WRITES } from '../console/guard.ts';
import { operator as asOperator, passkeySignIn, type Operator } from '#test-support/operators.ts';
import { finishPendingPayments, paymentContext, PENDING_EXPIRY_MS } from './payments.ts';
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
    cluster: 'mainnet-beta',
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
    // The app reads it once, as it starts; removed then, so no run leaves it in the temp folder.
    t = await createTestApp(kind, { solana: solana(), siteConfigFile: siteFile }).finally(() =>
      rmSync(siteFile),
    );
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
    // Each test starts a fresh window of the console's write limit (it counts on the app's clock).
    t.clock.advance(CONSOLE_WRITES.windowMs);
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

  it('expires a payment once its blockhash cannot land, with the reason; a new one can be prepared', async () => {
    const { week } = await approvedWeek();
    const first = await prepare(week);
    chain.advance(151);
    await t.app.maintenance.runAll();
    expect(await steps(week)).toEqual(['approved', 'pending', 'expired']);
    expect((await operator.request('GET', paymentPath(week))).json()).toMatchObject({
      state: 'expired',
      detail: expect.stringMatching(
        `no transaction carrying reference ${first.reference} landed before its blockhash expired`,
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
  /** The operator log's lines of `kind` about `target` (a week, a burn's signature), newest first. */
  async function logged(kind: string, target: string): Promise<LogEntry[]> {
    const res = await operator.request('GET', `${consolePaths.log}?kind=${kind}&limit=100`);
    expect(res.statusCode, res.body).toBe(200);
    return res.json<{ entries: LogEntry[] }>().entries.filter((e) => e.targetId === target);
  }

  /** `count` cheap transactions naming `reference` that succeed on chain (a lamport, no memo). */
  async function spam(reference: string, count: number): Promise<void> {
    const spammer = await fundedSigner(chain);
    const sink = await fundedSigner(chain, 1n);
    for (let i = 0; i < count; i++) {
      chain.send(
        await prizeTransfer(chain, spammer, {
          to: sink.address,
          lamports: BigInt(i + 1),
          reference,
        }),
      );
    }
  }

  it('records the payment whatever names its reference afterwards: twenty cheap transactions push nothing out', async () => {
    // Confirmed by the console, which holds the signature its wallet answered.
    let { week } = await approvedWeek();
    let p = await prepare(week);
    const genuine = await pay(p);
    await spam(p.reference!, 20);
    const res = await confirm(week, genuine);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ state: 'paid', signature: genuine });

    // Found by the scheduler, which holds no signature, through pages of three.
    ({ week } = await approvedWeek());
    p = await prepare(week);
    const found = await pay(p);
    await spam(p.reference!, 20);
    chain.signaturesPerPage = 3;
    try {
      await t.app.maintenance.runAll();
    } finally {
      chain.signaturesPerPage = 1_000;
    }
    expect(await steps(week)).toEqual(['approved', 'pending', 'paid']);
    expect((await operator.request('GET', paymentPath(week))).json()).toMatchObject({
      state: 'paid',
      signature: found,
    });

    // Spam alone: refused once, then remembered (a finalized verdict never changes), so the
    // console's check every few seconds fetches none of it again.
    ({ week } = await approvedWeek());
    p = await prepare(week);
    await spam(p.reference!, 20);
    expect((await confirm(week)).json()).toMatchObject({ code: 'TX_NO_MEMO' });
    const before = chain.calls.length;
    expect((await confirm(week)).json()).toMatchObject({ code: 'TX_NO_MEMO' });
    expect(chain.calls.slice(before)).not.toContain('getTransaction');
  });

  it('keeps a payment open while its blockhash can land, and records it when it lands after 30 minutes', async () => {
    const { week } = await approvedWeek();
    const p = await prepare(week);
    t.clock.advance(PENDING_EXPIRY_MS + 60_000);
    await t.app.maintenance.runAll();
    expect(await steps(week)).toEqual(['approved', 'pending']);
    // The wallet's transfer, built on the prepared payment, lands late.
    const late = await pay(p);
    await t.app.maintenance.runAll();
    expect(await steps(week)).toEqual(['approved', 'pending', 'paid']);
    await passkeySignIn(operator, signedIn.authenticator);
    expect((await operator.request('GET', paymentPath(week))).json()).toMatchObject({
      state: 'paid',
      signature: late,
    });
  });

  it('records a hand-sent payment that landed after it expired, rather than preparing another', async () => {
    const { week } = await approvedWeek();
    expect((await admin({}, 'prize:prepare', '--week', week)).code).toBe(0);
    const [pending] = (await weekEvents(db(), week)).filter((e) => e.step === 'pending');
    t.clock.advance(PENDING_EXPIRY_MS + 60_000);
    await t.app.maintenance.runAll();
    expect(await steps(week)).toEqual(['approved', 'pending', 'expired']);
    // The operator's wallet sends it after all.
    const late = await pay({
      recipient: pending!.wallet_address!,
      lamports: String(pending!.lamports),
      reference: pending!.reference,
      memo: pending!.memo,
    } as PaymentStatus);
    await passkeySignIn(operator, signedIn.authenticator);
    const again = await operator.request('POST', paymentPath(week));
    expect(again.statusCode, again.body).toBe(409);
    expect(again.json()).toMatchObject({ code: 'PRIZE_ALREADY_PAID' });
    expect(await steps(week)).toEqual(['approved', 'pending', 'expired', 'paid']);
    expect((await operator.request('GET', paymentPath(week))).json()).toMatchObject({
      state: 'paid',
      signature: late,
    });
  });

  it('refuses a second prepare while the first could still be paid, then prepares once it cannot', async () => {
    const { week } = await approvedWeek();
    const first = await prepare(week);
    const second = await operator.request('POST', paymentPath(week));
    expect(second.statusCode, second.body).toBe(409);
    expect(second.json()).toMatchObject({
      code: 'PAYMENT_STILL_OPEN',
      message: expect.stringMatching(`reference ${first.reference}.*its blockhash can land`),
    });
    const cli = await admin({}, 'prize:prepare', '--week', week);
    expect(cli).toEqual({ code: 1, text: expect.stringMatching(/could still be paid/) });
    // Past its blockhash, but a transaction naming the reference is still in flight.
    chain.finalizeNew = false;
    const inFlight = chain.send(
      await prizeTransfer(chain, await fundedSigner(chain), {
        to: await freshAddress(),
        lamports: LAMPORTS_PER_SOL / 100n,
        reference: first.reference!,
      }),
    );
    chain.finalizeNew = true;
    chain.advance(151);
    const third = await operator.request('POST', paymentPath(week));
    expect(third.json()).toMatchObject({
      code: 'PAYMENT_STILL_OPEN',
      message: expect.stringMatching(`transaction ${inFlight} carrying its reference is confirmed`),
    });
    expect(await steps(week)).toEqual(['approved', 'pending']);
    chain.finalize(inFlight);
    const fresh = await prepare(week);
    expect(fresh.reference).not.toBe(first.reference);
    expect(await steps(week)).toEqual(['approved', 'pending', 'expired', 'pending']);
  });

  it('records a week the treasury already paid by hand (memo, no reference) instead of preparing it', async () => {
    const { week, winner } = await approvedWeek();
    const treasury = await fundedSigner(chain);
    const byHand = chain.send(
      await prizeTransfer(chain, treasury, {
        to: winner,
        lamports: PRIZE,
        memo: `Daily Grind prize ${week}`,
      }),
    );
    const r = await admin(
      { solana: solana({ treasury: [treasury.address] }) },
      'prize:prepare',
      '--week',
      week,
    );
    expect(r).toEqual({
      code: 1,
      text: expect.stringMatching(`already paid on chain \\(transaction ${byHand}\\)`),
    });
    expect(await steps(week)).toEqual(['approved', 'paid']);
  });

  it('checks every week in the scheduler: an expired week and one it cannot read stop none of the others', async () => {
    // A week whose payment expired (prepared by hand, never sent).
    const expired = await approvedWeek();
    expect((await admin({}, 'prize:prepare', '--week', expired.week)).code).toBe(0);
    t.clock.advance(PENDING_EXPIRY_MS + 60_000);
    await t.app.maintenance.runAll();
    expect(await steps(expired.week)).toEqual(['approved', 'pending', 'expired']);
    await passkeySignIn(operator, signedIn.authenticator);
    // A week the RPC answers garbage about.
    const garbled = await approvedWeek();
    const g = await prepare(garbled.week);
    // A week paid on chain, after both.
    const paid = await approvedWeek();
    await pay(await prepare(paid.week));
    chain.craft = (method, params) =>
      method === 'getSignaturesForAddress' && params[0] === g.reference
        ? '{"jsonrpc":"2.0","id":1,"result":[{"oops":true}]}'
        : undefined;
    try {
      await t.app.maintenance.runAll();
      expect(await steps(paid.week)).toEqual(['approved', 'pending', 'paid']);
      const ctx = paymentContext(t.config, { db: db(), site: defaultSite, clock: t.clock });
      await expect(finishPendingPayments(ctx)).rejects.toThrow(
        new RegExp(`1 prize week\\(s\\) could not be checked.*${garbled.week}: .*shape`),
      );
    } finally {
      chain.craft = undefined;
    }
  });

  it('puts every money action on the operator log, with the operator, the wallet, the amount and the transaction', async () => {
    const { week, winner } = await approvedWeek();
    const p = await prepare(week);
    const name = signedIn.user.username;
    expect(await logged('prize-prepare', week)).toEqual([
      expect.objectContaining({
        operatorName: name,
        targetType: 'prize-week',
        details: expect.objectContaining({
          wallet: winner,
          lamports: String(PRIZE),
          amount: '1 SOL',
          reference: p.reference,
        }),
      }),
    ]);
    // A transfer the chain refuses (short), then the real one.
    const short = await pay(p, { lamports: PRIZE - 1n });
    expect((await confirm(week, short)).json()).toMatchObject({ code: 'TX_SHORT_AMOUNT' });
    const payer = await fundedSigner(chain);
    const signature = await pay(p, {}, payer);
    expect((await confirm(week, signature)).json()).toMatchObject({ state: 'paid' });
    expect(await logged('prize-sent', week)).toEqual([
      expect.objectContaining({ details: expect.objectContaining({ signature }) }),
      expect.objectContaining({ details: expect.objectContaining({ signature: short }) }),
    ]);
    expect(await logged('prize-refused', week)).toEqual([
      expect.objectContaining({
        operatorName: name,
        reason: expect.stringMatching(/less than the prize of 1 SOL/),
        details: expect.objectContaining({
          signature: short,
          code: 'TX_SHORT_AMOUNT',
          wallet: winner,
          explorerUrl: `https://solscan.io/tx/${short}`,
        }),
      }),
    ]);
    expect(await logged('prize-paid', week)).toEqual([
      expect.objectContaining({
        operatorName: name,
        details: expect.objectContaining({
          signature,
          wallet: winner,
          payer: payer.address,
          lamports: String(PRIZE),
          explorerUrl: `https://solscan.io/tx/${signature}`,
        }),
      }),
    ]);

    // Burns: recorded, and refused with the chain's reason.
    const owner = await fundedSigner(chain);
    const grind = await createTestMint(chain, owner, { mint: siteMint, decimals: 6 });
    const burned = chain.send(await burnTokens(chain, grind, 3_000_000n));
    expect(
      (await operator.request('POST', chainPaths.recordBurn, { body: { signature: burned } }))
        .statusCode,
    ).toBe(201);
    expect(await logged('burn-record', burned)).toEqual([
      expect.objectContaining({
        operatorName: name,
        details: expect.objectContaining({
          signature: burned,
          wallet: owner.address,
          amount: '3000000',
          explorerUrl: `https://solscan.io/tx/${burned}`,
        }),
      }),
    ]);
    const zero = chain.send(await burnTokens(chain, grind, 0n));
    await operator.request('POST', chainPaths.recordBurn, { body: { signature: zero } });
    expect(await logged('burn-refused', zero)).toEqual([
      expect.objectContaining({
        operatorName: name,
        reason: expect.stringMatching(/burns 0 tokens/),
        details: expect.objectContaining({ signature: zero, code: 'TX_BURN_ZERO' }),
      }),
    ]);
    // The CLI's payment actions are on the log under the shell's user.
    const cliWeek = await approvedWeek();
    expect((await admin({}, 'prize:prepare', '--week', cliWeek.week)).code).toBe(0);
    expect(await logged('prize-prepare', cliWeek.week)).toEqual([
      expect.objectContaining({ operatorName: expect.stringMatching(/^cli:/) }),
    ]);
  });

  it("counts the payment and burn routes against the console's write limit", async () => {
    const other = await asOperator(t, 'admin', { passkey: true, ip: '198.51.100.23' });
    const { week } = await approvedWeek();
    const answers: number[] = [];
    for (let i = 0; i < 61; i++) {
      const res = await other.client.request(
        'POST',
        i % 2 ? confirmPath(week) : paymentPath(week),
        {
          body: {},
        },
      );
      answers.push(res.statusCode);
    }
    expect(answers.at(-1)).toBe(429);
    const burn = await other.client.request('POST', chainPaths.recordBurn, {
      body: { signature: '1'.repeat(64) },
    });
    expect(burn.json()).toMatchObject({ code: 'RATE_LIMITED' });
  });

  it('refuses burns of 0 and of more than the supply can have held, and answers a malformed RPC 503', async () => {
    const owner = await fundedSigner(chain);
    const grind = await createTestMint(chain, owner, { mint: siteMint, decimals: 6 });
    const total = async () =>
      (await member.request('GET', chainPaths.burns)).json<BurnsResponse>().totalBurned;
    const before = await total();
    const record = (signature: string) =>
      operator.request('POST', chainPaths.recordBurn, { body: { signature } });

    const zero = chain.send(await burnTokens(chain, grind, 0n));
    expect((await record(zero)).json()).toMatchObject({ code: 'TX_BURN_ZERO' });

    // A crafted answer saying a real burn took u64::MAX.
    const burned = chain.send(await burnTokens(chain, grind, 1_500_000n));
    const u64Max = '18446744073709551615';
    chain.craft = (method, params) => {
      if (method !== 'getTransaction') return undefined;
      const real = chain.rpcAnswer(method, params) as {
        transaction: { message: { instructions: { data: string }[] } };
      };
      const data = new Uint8Array(9).fill(0xff);
      data[0] = 8;
      real.transaction.message.instructions[0]!.data = base58.encode(data);
      return JSON.stringify({ jsonrpc: '2.0', id: 1, result: real });
    };
    let res = await record(burned);
    expect(res.statusCode, res.body).toBe(422);
    expect(res.json()).toMatchObject({ code: 'TX_BURN_TOO_LARGE' });
    // A mint whose supply leaves no room for what the burn says it took.
    chain.craft = (method) =>
      method === 'getTokenSupply'
        ? JSON.stringify({
            jsonrpc: '2.0',
            id: 1,
            result: { context: { slot: 1 }, value: { amount: u64Max, decimals: 6 } },
          })
        : undefined;
    res = await record(burned);
    expect(res.json()).toMatchObject({ code: 'TX_BURN_TOO_LARGE' });
    // A malformed answer: 503 with a code, never 500.
    chain.craft = (method) =>
      method === 'getTransaction' ? '{"jsonrpc":"2.0","id":1,"result":{"slot":"x"}}' : undefined;
    res = await record(burned);
    expect(res.statusCode).toBe(503);
    expect(res.json()).toMatchObject({ code: 'CHAIN_BAD_ANSWER' });
    chain.craft = undefined;
    expect(await total()).toBe(before);
    expect((await record(burned)).statusCode).toBe(201);
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
