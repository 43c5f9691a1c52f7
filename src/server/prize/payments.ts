import { MINUTE_MS } from '#shared/time.ts';
import { randomBytes } from 'node:crypto';
import { base58 } from '@scure/base';
import type { Kysely, Transaction } from 'kysely';
import type { PaymentStatus, PreparedPayment } from '#shared/api/chain.ts';
import type { ErrorCode } from '#shared/api/error-codes.ts';
import { explorerTxUrl } from '#shared/explorer-links.ts';
import type { SiteConfig } from '#shared/site.ts';
import {
  ChainUnavailable,
  createChainRpc,
  NO_RPC_MESSAGE,
  type ChainRpc,
  type SignatureInfo,
} from '../chain/rpc.ts';
import {
  formatLamports,
  prizeLamports,
  prizeMemo,
  verifyPayment,
  type ExpectedPayment,
  type Refusal,
  type Verdict,
  type VerifiedPayment,
} from '../chain/verify.ts';
import type { AlertsConfig, AppConfig } from '../config.ts';
import { enqueueAlert } from '../alerts/outbox.ts';
import type { Database } from '../db/database.ts';
import { cliOperator, recordDecision, type Operator } from '../db/operator-log.ts';
import { HttpError } from '../http-error.ts';
import { isUniqueViolation } from '../db/errors.ts';
import { recordLiveEvent } from '../live/record.ts';
import {
  appendPrizeEvent,
  paidCluster,
  paymentSteps,
  runOf,
  weekEvents,
  type PrizeEventRow,
} from './repository.ts';
import type { Clock } from '../clock.ts';
import { traced, type Tracing } from '../tracing/tracing.ts';

/**
 * A payment prepared by prize:prepare carries no blockhash (the operator's own wallet picks one
 * when it sends), so the chain cannot say when it stops being able to land: it stays open this
 * long after nothing carrying its reference is in flight, and a transfer that lands later is
 * still found before any new prepare (docs/decisions/023-prize-paid-on-chain.md). A console
 * payment expires by its blockhash instead.
 */
export const PENDING_EXPIRY_MS = 30 * MINUTE_MS;

/** How far before the approval the winner's wallet is searched for a payment sent by hand. */
const WINNER_SEARCH_MARGIN_S = 24 * 60 * 60;

/** What paying a prize needs: the record, the site's prize and the chain. */
export interface PaymentContext {
  db: Kysely<Database>;
  site: SiteConfig;
  /** PRIZE_TREASURY's addresses (any payer when empty). */
  treasury: readonly string[];
  /** Undefined without SOLANA_RPC_URL: nothing can be recorded as paid. */
  rpc: ChainRpc | undefined;
  clock: Clock;
  /** Who acts, for the operator log: the console's operator; the CLI's shell user when left out. */
  operator?: Operator;
  /**
   * Verdicts on finalized transactions that failed the week's checks (they never change), so
   * the console's check every few seconds does not fetch again what names a reference in bulk.
   */
  refusals?: Map<string, { code: Refusal; reason: string }>;
  /** Where a payment the chain refused is told (docs/decisions/027). */
  alerts?: AlertsConfig;
}

/** How many refusals a context remembers before it starts again. */
const REFUSALS_KEPT = 50_000;

/** The maintenance scheduler, as the operator log names it. */
const SCHEDULER: Operator = { id: null, name: 'scheduler', address: 'server' };

/** The calls of ChainRpc, each a span when tracing (the RPC's host names it, not its URL). */
const RPC_CALLS = [
  'signaturesFor',
  'finalizedTransaction',
  'status',
  'latestBlockhash',
  'finalizedBlockHeight',
  'tokenSupply',
] as const satisfies readonly (keyof ChainRpc)[];

/** The site's RPC client, or undefined without SOLANA_RPC_URL. */
export function chainRpcFor(
  config: Pick<AppConfig, 'solana'>,
  tracing?: Tracing,
): ChainRpc | undefined {
  const { rpcUrl, timeoutMs } = config.solana;
  if (rpcUrl === undefined) return undefined;
  return traced(tracing, 'solana', createChainRpc(rpcUrl, timeoutMs), RPC_CALLS, {
    'rpc.system': 'jsonrpc',
    'server.address': new URL(rpcUrl).hostname,
  });
}

export function paymentContext(
  config: Pick<AppConfig, 'solana'> & Partial<Pick<AppConfig, 'alerts'>>,
  rest: Omit<PaymentContext, 'treasury' | 'rpc'>,
  tracing?: Tracing,
): PaymentContext {
  return {
    ...rest,
    treasury: config.solana.treasury,
    alerts: config.alerts,
    rpc: chainRpcFor(config, tracing),
    refusals: new Map(),
  };
}

const refusal = (status: number, code: ErrorCode, message: string) =>
  new HttpError(status, message, code);

/** The RPC's failure as the caller's answer: 503, nothing recorded, tried again later. */
function unavailable(error: ChainUnavailable): HttpError {
  return refusal(
    503,
    error.code,
    `${error.message}; nothing was recorded, try again in a minute (a pending payment is also checked every ten minutes)`,
  );
}

function requireRpc(ctx: PaymentContext): ChainRpc {
  if (ctx.rpc === undefined) throw refusal(503, 'CHAIN_NOT_CONFIGURED', NO_RPC_MESSAGE);
  return ctx.rpc;
}

/** Runs `work`, answering an RPC failure as 503 (nothing recorded). */
async function onChain<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof ChainUnavailable) throw unavailable(error);
    throw error;
  }
}

interface WeekPayment {
  approval: PrizeEventRow | undefined;
  paid: PrizeEventRow | undefined;
  /** Every payment prepared for the week, oldest first: an expired one may still have landed. */
  prepared: PrizeEventRow[];
  /** Prepared payments not expired, newest last. */
  open: PrizeEventRow[];
  lastExpired: PrizeEventRow | undefined;
}

function weekPayment(events: PrizeEventRow[]): WeekPayment {
  const paid = events.find((e) => e.step === 'paid');
  const expired = new Set(events.filter((e) => e.step === 'expired').map((e) => e.reference));
  const prepared = events.filter((e) => e.step === 'pending');
  return {
    approval: events.findLast((e) => e.step === 'approved'),
    paid,
    prepared,
    open: paid ? [] : prepared.filter((e) => !expired.has(e.reference)),
    lastExpired: events.findLast((e) => e.step === 'expired'),
  };
}

/**
 * Every prize week by its payment's state now (as `paymentStatus` tells it: approved, pending,
 * expired, paid), and how long the oldest open payment has waited: what /metrics reports.
 */
export async function paymentStates(
  db: Kysely<Database>,
  now: number,
): Promise<{ weeks: Record<PaymentStatus['state'], number>; oldestPendingMs: number | null }> {
  const weeks = { approved: 0, pending: 0, expired: 0, paid: 0 };
  let oldestPending: number | null = null;
  const byWeek = new Map<string, PrizeEventRow[]>();
  for (const event of await paymentSteps(db)) {
    const week = byWeek.get(event.week_id);
    if (week) week.push(event);
    else byWeek.set(event.week_id, [event]);
  }
  for (const events of byWeek.values()) {
    const state = weekPayment(events);
    if (state.paid) weeks.paid += 1;
    else if (state.open[0]) {
      weeks.pending += 1;
      oldestPending = Math.min(oldestPending ?? Infinity, state.open[0].created_at);
    } else if (state.lastExpired) weeks.expired += 1;
    else if (state.approval) weeks.approved += 1;
  }
  return { weeks, oldestPendingMs: oldestPending === null ? null : now - oldestPending };
}

async function loadWeek(ctx: PaymentContext, weekId: string): Promise<WeekPayment> {
  return weekPayment(await weekEvents(ctx.db, weekId));
}

function requireApproval(weekId: string, state: WeekPayment): PrizeEventRow {
  const { approval } = state;
  if (!approval || approval.user_id === null || approval.wallet_address === null) {
    throw refusal(
      409,
      'PRIZE_NOT_APPROVED',
      `no run is approved for ${weekId} (prize:review, then prize:approve)`,
    );
  }
  return approval;
}

const iso = (ms: number) => new Date(ms).toISOString();

function statusOf(
  ctx: PaymentContext,
  weekId: string,
  state: WeekPayment,
  detail: string | null = null,
): PaymentStatus {
  const approval = requireApproval(weekId, state);
  const prize = approval.prize ?? ctx.site.weeklyChallenge.prize;
  const lamports = prizeLamports(prize);
  const base = {
    week: weekId,
    recipient: approval.wallet_address!,
    playerName: approval.player_name,
    prize,
    lamports: lamports?.toString() ?? '0',
    reference: null,
    memo: null,
    detail,
    signature: null,
    slot: null,
    blockTime: null,
    explorerUrl: null,
  };
  if (state.paid) {
    const p = state.paid;
    return {
      ...base,
      state: 'paid',
      recipient: p.wallet_address ?? base.recipient,
      reference: p.reference,
      memo: p.memo,
      signature: p.tx_signature,
      slot: p.slot === null ? null : String(p.slot),
      blockTime: p.block_time === null ? null : iso(p.block_time),
      explorerUrl: p.tx_signature
        ? explorerTxUrl(ctx.site, p.tx_signature, paidCluster(p))
        : p.tx_url,
      // A record from a rehearsal on another cluster says so (decision 030).
      detail:
        paidCluster(p) === ctx.site.solana.cluster
          ? detail
          : `verified on ${paidCluster(p)}, not on this site's cluster (${ctx.site.solana.cluster})`,
    };
  }
  const pending = state.open.at(-1);
  if (pending) {
    const lives =
      pending.last_valid_block_height === null
        ? ''
        : `; its blockhash can land until block height ${pending.last_valid_block_height}`;
    return {
      ...base,
      state: 'pending',
      recipient: pending.wallet_address!,
      lamports: String(pending.lamports),
      reference: pending.reference,
      memo: pending.memo,
      detail:
        detail ??
        `waiting for a finalized transaction carrying reference ${pending.reference} (prepared ${iso(pending.created_at)}${lives})`,
    };
  }
  if (state.lastExpired) {
    return { ...base, state: 'expired', detail: detail ?? state.lastExpired.reason };
  }
  // Nothing can be paid without an RPC to verify it: the console says how to set one.
  return { ...base, state: 'approved', detail: detail ?? (ctx.rpc ? null : NO_RPC_MESSAGE) };
}

export async function paymentStatus(ctx: PaymentContext, weekId: string): Promise<PaymentStatus> {
  return statusOf(ctx, weekId, await loadWeek(ctx, weekId));
}

/** The week's payment so far; refused unless the week is approved and not paid yet. */
async function payableWeek(ctx: PaymentContext, weekId: string) {
  const state = await loadWeek(ctx, weekId);
  if (state.paid) throw refusal(409, 'PRIZE_ALREADY_PAID', `${weekId} is already paid`);
  return { state, approval: requireApproval(weekId, state) };
}

// ---------------------------------------------------------------------------------------------
// The operator log: every money action, with the operator, the wallet, the amount and the
// transaction (issue 41).

type Db = Kysely<Database> | Transaction<Database>;
type PrizeLogKind =
  'prize-prepare' | 'prize-sent' | 'prize-paid' | 'prize-refused' | 'prize-expired';

async function logPrize(
  db: Db,
  ctx: PaymentContext,
  kind: PrizeLogKind,
  weekId: string,
  about: Pick<PrizeEventRow, 'player_name' | 'wallet_address'>,
  lamports: bigint | number | null,
  reason: string,
  details: Record<string, unknown> = {},
): Promise<void> {
  const signature = typeof details.signature === 'string' ? details.signature : undefined;
  await recordDecision(
    db,
    ctx.operator ?? cliOperator(),
    {
      kind,
      targetType: 'prize-week',
      targetId: weekId,
      targetLabel: `${weekId}: ${about.player_name}`,
      reason,
      details: {
        wallet: about.wallet_address,
        lamports: lamports === null ? null : String(lamports),
        amount: lamports === null ? null : formatLamports(BigInt(lamports)),
        ...details,
        ...(signature ? { explorerUrl: explorerTxUrl(ctx.site, signature) } : {}),
      },
    },
    ctx.clock.now(),
  );
}

/**
 * What a log line about the week's payment names: its latest open payment (its approval when
 * none is open), and that payment's amount (the prize's when it names none).
 */
function latestPayment(ctx: PaymentContext, state: WeekPayment) {
  const about = state.open.at(-1) ?? state.approval!;
  const lamports =
    about.lamports ?? prizeLamports(about.prize ?? ctx.site.weeklyChallenge.prize) ?? null;
  return { about, lamports };
}

/** A refused transaction, on the log with the chain's reason, then thrown. */
async function refuseLogged(
  ctx: PaymentContext,
  weekId: string,
  state: WeekPayment,
  signature: string,
  error: HttpError,
): Promise<never> {
  const { about, lamports } = latestPayment(ctx, state);
  await logPrize(ctx.db, ctx, 'prize-refused', weekId, about, lamports, error.message, {
    signature,
    code: error.code,
  });
  if (ctx.alerts) {
    await enqueueAlert(
      ctx.db,
      ctx.alerts,
      {
        kind: 'payment-refused',
        subject: `Prize payment for ${weekId} refused by the chain`,
        body: `${about.player_name}'s payment, transaction ${signature}: ${error.message}`,
      },
      ctx.clock.now(),
    );
  }
  throw error;
}

// ---------------------------------------------------------------------------------------------
// Finding the week's payment on chain.

/** What a transfer is checked against: one prepared payment, or none (a treasury transfer). */
function expectation(
  ctx: PaymentContext,
  weekId: string,
  approval: PrizeEventRow,
  pending?: PrizeEventRow,
): ExpectedPayment | undefined {
  if (pending) {
    return {
      recipient: pending.wallet_address!,
      lamports: BigInt(pending.lamports!),
      reference: pending.reference!,
      memo: pending.memo!,
      treasury: ctx.treasury,
    };
  }
  const lamports = prizeLamports(approval.prize ?? ctx.site.weeklyChallenge.prize);
  if (lamports === undefined || approval.wallet_address === null) return undefined;
  return {
    recipient: approval.wallet_address,
    lamports,
    reference: null,
    memo: prizeMemo(ctx.site.brand, weekId),
    treasury: ctx.treasury,
  };
}

/**
 * A transaction checked against every payment prepared for the week, newest first, and (when
 * PRIZE_TREASURY is set) as a treasury transfer without a reference: the first that passes, or
 * the newest payment's refusal.
 */
function judge(
  ctx: PaymentContext,
  weekId: string,
  state: WeekPayment,
  tx: Parameters<typeof verifyPayment>[0],
): Verdict<VerifiedPayment> {
  const approval = state.approval!;
  const expected = [...state.prepared].reverse().map((p) => expectation(ctx, weekId, approval, p));
  if (ctx.treasury.length > 0 || expected.length === 0) {
    expected.push(expectation(ctx, weekId, approval));
  }
  let first: Verdict<VerifiedPayment> | undefined;
  for (const e of expected) {
    if (!e) continue;
    const verdict = verifyPayment(tx, e);
    if (verdict.ok) return verdict;
    first ??= verdict;
  }
  return first ?? { ok: false, code: 'TX_NO_REFERENCE', reason: 'nothing to check it against' };
}

class Refused extends HttpError {
  constructor(code: Refusal, reason: string) {
    super(422, reason, code);
  }
}

async function recordedFor(ctx: PaymentContext, signature: string) {
  return ctx.db
    .selectFrom('prize_events')
    .select(['week_id'])
    .where('tx_signature', '=', signature)
    .executeTakeFirst();
}

/** Which of `signatures` are recorded as some week's payment. */
async function recordedAmong(ctx: PaymentContext, signatures: string[]): Promise<Set<string>> {
  const recorded = new Set<string>();
  for (let i = 0; i < signatures.length; i += 500) {
    const rows = await ctx.db
      .selectFrom('prize_events')
      .select('tx_signature')
      .where('tx_signature', 'in', signatures.slice(i, i + 500))
      .execute();
    for (const row of rows) recorded.add(row.tx_signature!);
  }
  return recorded;
}

function alreadyRecorded(signature: string, weekId: string): HttpError {
  return refusal(
    409,
    'TX_ALREADY_RECORDED',
    `transaction ${signature} is already recorded as the payment of ${weekId}`,
  );
}

/** The paid step and its line on the operator log, in one transaction; then Recent Winners. */
async function recordPaid(
  ctx: PaymentContext,
  weekId: string,
  state: WeekPayment,
  paid: VerifiedPayment,
): Promise<void> {
  const recorded = await recordedFor(ctx, paid.signature);
  if (recorded) throw alreadyRecorded(paid.signature, recorded.week_id);
  const approval = state.approval!;
  const pending = state.prepared.find((p) => p.reference === paid.reference);
  try {
    await ctx.db.transaction().execute(async (trx) => {
      await appendPrizeEvent(trx, {
        week_id: weekId,
        step: 'paid',
        ...runOf(approval),
        wallet_address: paid.recipient,
        prize: approval.prize,
        tx_signature: paid.signature,
        reference: paid.reference,
        memo: pending?.memo ?? prizeMemo(ctx.site.brand, weekId),
        lamports: Number(paid.received),
        slot: Number(paid.slot),
        block_time: paid.blockTime * 1000,
        cluster: ctx.site.solana.cluster,
        created_at: ctx.clock.now(),
      });
      await logPrize(
        trx,
        ctx,
        'prize-paid',
        weekId,
        { player_name: approval.player_name, wallet_address: paid.recipient },
        paid.received,
        `verified at finalized and recorded: ${formatLamports(paid.received)} from ${paid.payer}`,
        {
          signature: paid.signature,
          payer: paid.payer,
          slot: String(paid.slot),
          reference: paid.reference,
        },
      );
    });
  } catch (error) {
    if (isUniqueViolation(error)) {
      throw refusal(
        409,
        'PRIZE_ALREADY_PAID',
        `${weekId} or transaction ${paid.signature} is already recorded`,
      );
    }
    throw error;
  }
  recordLiveEvent(ctx.db, { type: 'winners', data: { week: weekId } });
}

interface Search {
  paid: VerifiedPayment | undefined;
  /** Transactions naming a reference of the week that failed a check, oldest first. */
  refused: { signature: string; code: Refusal; reason: string }[];
}

/**
 * Looks for the week's payment on chain, the way Solana Pay's findReference and validateTransfer
 * do, but through every page of signatures naming each of the week's references (expired ones
 * included: a transfer may have landed after all), and, with PRIZE_TREASURY set, the winner's
 * wallet since the approval for a treasury transfer with the week's memo. Checked oldest first:
 * a reference is public only once the real transfer is seen, so whatever names it afterwards
 * (twenty cheap transactions, say) comes later and cannot push it out.
 */
async function searchChain(
  ctx: PaymentContext,
  rpc: ChainRpc,
  weekId: string,
  state: WeekPayment,
): Promise<Search> {
  const naming = new Map<string, SignatureInfo & { byReference: boolean }>();
  for (const pending of state.prepared) {
    for (const s of await rpc.signaturesFor(pending.reference!)) {
      naming.set(s.signature, { ...s, byReference: true });
    }
  }
  const winner = state.approval?.wallet_address;
  if (ctx.treasury.length > 0 && winner) {
    const since = Math.floor(state.approval!.created_at / 1000) - WINNER_SEARCH_MARGIN_S;
    for (const s of await rpc.signaturesFor(winner, { since })) {
      if (s.err === null && !naming.has(s.signature)) {
        naming.set(s.signature, { ...s, byReference: false });
      }
    }
  }
  // The RPC lists newest first; reversed, then sorted by slot (stable), it is oldest first.
  const oldestFirst = [...naming.values()]
    .reverse()
    .sort((a, b) => (a.slot === b.slot ? 0 : a.slot < b.slot ? -1 : 1));
  const recorded = await recordedAmong(
    ctx,
    oldestFirst.map((s) => s.signature),
  );
  const refused: Search['refused'] = [];
  const checks = `${weekId}|${state.prepared.map((p) => p.reference).join(',')}|${ctx.treasury.join(',')}|`;
  for (const s of oldestFirst) {
    if (recorded.has(s.signature)) continue;
    const known = ctx.refusals?.get(checks + s.signature);
    if (known) {
      if (s.byReference) refused.push({ signature: s.signature, ...known });
      continue;
    }
    // A failed transaction pays nothing: the list says so without fetching it.
    const tx = s.err === null ? await rpc.finalizedTransaction(s.signature) : null;
    if (tx === null && s.err === null) continue;
    const verdict: Verdict<VerifiedPayment> = tx
      ? judge(ctx, weekId, state, tx)
      : {
          ok: false,
          code: 'TX_FAILED',
          reason: `transaction ${s.signature} failed on chain (${JSON.stringify(s.err)})`,
        };
    if (verdict.ok) return { paid: verdict.value, refused };
    if (ctx.refusals) {
      if (ctx.refusals.size >= REFUSALS_KEPT) ctx.refusals.clear();
      ctx.refusals.set(checks + s.signature, { code: verdict.code, reason: verdict.reason });
    }
    if (s.byReference) refused.push({ signature: s.signature, ...verdict });
  }
  return { paid: undefined, refused };
}

/**
 * Why a prepared payment could still be paid, or null once it cannot: a transaction naming its
 * reference is in flight (seen at `confirmed`, not finalized), or its blockhash has not expired
 * at `finalized` (a transfer built on it can land until the finalized chain is past its
 * lastValidBlockHeight; one that landed before is finalized by then and was searched). A
 * payment prepared by the CLI has no blockhash: it stays open PENDING_EXPIRY_MS.
 */
async function stillPayable(
  ctx: PaymentContext,
  rpc: ChainRpc,
  pending: PrizeEventRow,
  finalizedHeight: () => Promise<bigint>,
): Promise<string | null> {
  const inFlight = (await rpc.signaturesFor(pending.reference!, { commitment: 'confirmed' })).find(
    (s) => s.confirmationStatus !== 'finalized' && s.err === null,
  );
  if (inFlight) {
    return `transaction ${inFlight.signature} carrying its reference is ${inFlight.confirmationStatus ?? 'processed'}, not finalized yet`;
  }
  if (pending.last_valid_block_height !== null) {
    const height = await finalizedHeight();
    return height <= BigInt(pending.last_valid_block_height)
      ? `its blockhash can land until block height ${pending.last_valid_block_height} (the chain is finalized at ${height})`
      : null;
  }
  const until = pending.created_at + PENDING_EXPIRY_MS;
  return ctx.clock.now() < until
    ? `it was prepared by prize:prepare, for a transfer sent by hand, and stays open until ${iso(until)}`
    : null;
}

async function expire(ctx: PaymentContext, pending: PrizeEventRow, reason: string): Promise<void> {
  await ctx.db.transaction().execute(async (trx) => {
    await appendPrizeEvent(trx, {
      week_id: pending.week_id,
      step: 'expired',
      ...runOf(pending),
      wallet_address: pending.wallet_address,
      prize: pending.prize,
      reference: pending.reference,
      memo: pending.memo,
      lamports: pending.lamports,
      reason,
      created_at: ctx.clock.now(),
    });
    await logPrize(trx, ctx, 'prize-expired', pending.week_id, pending, pending.lamports, reason, {
      reference: pending.reference,
    });
  });
}

function expiryReason(pending: PrizeEventRow): string {
  return pending.last_valid_block_height === null
    ? `no finalized transaction carried reference ${pending.reference} within ${PENDING_EXPIRY_MS / MINUTE_MS} minutes, and none is in flight; prepare the payment again`
    : `no transaction carrying reference ${pending.reference} landed before its blockhash expired (block height ${pending.last_valid_block_height}), and none can now; prepare the payment again`;
}

// ---------------------------------------------------------------------------------------------
// Prepare, confirm, record by signature, and the scheduler.

/**
 * Prepares the week's payment. First the chain is searched, so a week already paid (a transfer
 * that landed late, or one sent by hand from PRIZE_TREASURY with the week's memo) is recorded
 * and not paid again (409 PRIZE_ALREADY_PAID). A payment prepared earlier that could still be
 * paid refuses a new one (409 PAYMENT_STILL_OPEN), except that the CLI gets its own open
 * prize:prepare payment again; one that cannot expires. Then a fresh reference key and the memo
 * naming the week are recorded as a pending step, numbered so that two operators preparing at
 * once cannot both get one; the console's also records the blockhash its transfer is built on.
 */
async function prepare(
  ctx: PaymentContext,
  weekId: string,
  withLifetime: boolean,
): Promise<PaymentStatus> {
  const { state, approval } = await payableWeek(ctx, weekId);
  const rpc = requireRpc(ctx);
  const prize = approval.prize ?? ctx.site.weeklyChallenge.prize;
  const lamports = prizeLamports(prize);
  if (lamports === undefined) {
    throw refusal(
      409,
      'PRIZE_NOT_SOL',
      `the prize "${prize}" is not an amount of SOL (such as "1 SOL"), so no transfer can be checked against it`,
    );
  }
  const lifetime = await onChain(async () => {
    const found = await searchChain(ctx, rpc, weekId, state);
    if (found.paid) {
      await recordPaid(ctx, weekId, state, found.paid);
      throw refusal(
        409,
        'PRIZE_ALREADY_PAID',
        `${weekId} was already paid on chain (transaction ${found.paid.signature}); it is now recorded, and nothing new was prepared`,
      );
    }
    let height: bigint | undefined;
    const finalizedHeight = async () => (height ??= await rpc.finalizedBlockHeight());
    for (const pending of state.open) {
      const why = await stillPayable(ctx, rpc, pending, finalizedHeight);
      if (why === null) {
        await expire(ctx, pending, expiryReason(pending));
        continue;
      }
      if (!withLifetime && pending.last_valid_block_height === null) return null;
      throw refusal(
        409,
        'PAYMENT_STILL_OPEN',
        `the payment prepared at ${iso(pending.created_at)} (reference ${pending.reference}) could still be paid: ${why}. If a wallet sent it, check it; otherwise prepare again once it cannot`,
      );
    }
    return withLifetime ? rpc.latestBlockhash() : undefined;
  });
  // prize:prepare's own open payment, answered again.
  if (lifetime === null) return statusOf(ctx, weekId, state);
  const reference = base58.encode(randomBytes(32));
  const memo = prizeMemo(ctx.site.brand, weekId);
  try {
    await ctx.db.transaction().execute(async (trx) => {
      await appendPrizeEvent(trx, {
        week_id: weekId,
        step: 'pending',
        ...runOf(approval),
        wallet_address: approval.wallet_address,
        prize,
        reference,
        memo,
        lamports: Number(lamports),
        blockhash: lifetime?.blockhash ?? null,
        last_valid_block_height:
          lifetime === undefined ? null : Number(lifetime.lastValidBlockHeight),
        attempt: state.prepared.length + 1,
        created_at: ctx.clock.now(),
      });
      await logPrize(
        trx,
        ctx,
        'prize-prepare',
        weekId,
        approval,
        lamports,
        `prepared ${formatLamports(lamports)} to ${approval.wallet_address}`,
        {
          reference,
          memo,
          lastValidBlockHeight: lifetime ? String(lifetime.lastValidBlockHeight) : null,
        },
      );
    });
  } catch (error) {
    if (isUniqueViolation(error)) {
      throw refusal(
        409,
        'PAYMENT_STILL_OPEN',
        `another payment for ${weekId} was prepared at the same moment; check it rather than preparing another`,
      );
    }
    throw error;
  }
  return paymentStatus(ctx, weekId);
}

/** `prize:prepare`: the payment for a transfer the operator sends by hand (no blockhash). */
export async function preparePayment(ctx: PaymentContext, weekId: string): Promise<PaymentStatus> {
  return prepare(ctx, weekId, false);
}

/**
 * The console's payment, prepared: the week's pending payment and the recent blockhash (from the
 * site's RPC at `finalized`) its transfer is built on, recorded with it so the payment is kept
 * open until that blockhash has expired.
 */
export async function preparePaymentWithLifetime(
  ctx: PaymentContext,
  weekId: string,
): Promise<PreparedPayment> {
  const status = await prepare(ctx, weekId, true);
  const pending = (await loadWeek(ctx, weekId)).open.at(-1)!;
  return {
    ...status,
    lifetime: {
      blockhash: pending.blockhash!,
      lastValidBlockHeight: String(pending.last_valid_block_height),
    },
  };
}

/**
 * The console says its wallet sent `signature`: on the log once per transaction (the console
 * asks again every few seconds while it waits).
 */
async function logSentOnce(
  ctx: PaymentContext,
  weekId: string,
  state: WeekPayment,
  signature: string,
): Promise<void> {
  const logged = await ctx.db
    .selectFrom('operator_log')
    .select('details')
    .where('kind', '=', 'prize-sent')
    .where('target_type', '=', 'prize-week')
    .where('target_id', '=', weekId)
    .execute();
  if (
    logged.some(
      (row) => (JSON.parse(row.details) as { signature?: string }).signature === signature,
    )
  ) {
    return;
  }
  const { about, lamports } = latestPayment(ctx, state);
  await logPrize(
    ctx.db,
    ctx,
    'prize-sent',
    weekId,
    about,
    lamports,
    'a wallet sent the payment from the console',
    { signature, reference: state.open.at(-1)?.reference ?? null },
  );
}

/**
 * Checks the week's payment on chain and records it once verified. `hint`, the signature the
 * console's wallet answered, is checked first and directly (getTransaction at `finalized`): a
 * refusal answered is about that transaction alone, never about another that names the same
 * public reference. Then every transaction naming the week's references is searched.
 */
export async function confirmPayment(
  ctx: PaymentContext,
  weekId: string,
  hint?: string,
): Promise<PaymentStatus> {
  const state = await loadWeek(ctx, weekId);
  if (state.paid) return statusOf(ctx, weekId, state);
  requireApproval(weekId, state);
  if (state.prepared.length === 0) {
    throw refusal(
      409,
      'NO_PENDING_PAYMENT',
      `no payment is prepared for ${weekId}: prepare one in the console (or prize:prepare) first`,
    );
  }
  const rpc = requireRpc(ctx);
  let detail: string | null = null;
  if (hint !== undefined) {
    const recorded = await recordedFor(ctx, hint);
    if (recorded) {
      await refuseLogged(ctx, weekId, state, hint, alreadyRecorded(hint, recorded.week_id));
    }
    await logSentOnce(ctx, weekId, state, hint);
    const tx = await onChain(() => rpc.finalizedTransaction(hint));
    if (tx !== null) {
      const verdict = judge(ctx, weekId, state, tx);
      if (!verdict.ok) {
        await refuseLogged(
          ctx,
          weekId,
          state,
          hint,
          new Refused(verdict.code, `Refused: ${verdict.reason}`),
        );
      } else {
        await recordPaid(ctx, weekId, state, verdict.value);
        return paymentStatus(ctx, weekId);
      }
    }
    const status = await onChain(() => rpc.status(hint));
    if (status === 'processed' || status === 'confirmed') {
      // The console's own transfer is on its way: it is checked again when it is final.
      return statusOf(
        ctx,
        weekId,
        state,
        `transaction ${hint} is ${status}, not finalized yet; the server checks again`,
      );
    }
    detail =
      status === 'failed'
        ? `transaction ${hint} failed on chain; it pays nothing`
        : `the Solana RPC has no finalized transaction ${hint} yet; the server checks again`;
  }
  const found = await onChain(() => searchChain(ctx, rpc, weekId, state));
  if (found.paid) {
    await recordPaid(ctx, weekId, state, found.paid);
    return paymentStatus(ctx, weekId);
  }
  // Without a transaction of its own to ask about, the caller hears the first refusal.
  const first = found.refused[0];
  if (hint === undefined && first) throw new Refused(first.code, `Refused: ${first.reason}`);
  return statusOf(ctx, weekId, state, detail);
}

/**
 * `prize:paid --tx`: the operator names the transaction; it is checked exactly as the console's
 * payment is, against every payment prepared for the week (or as a PRIZE_TREASURY transfer with
 * the week's memo), and recorded only when it passes. Refusals go on the operator log.
 */
export async function recordPaymentBySignature(
  ctx: PaymentContext,
  weekId: string,
  signature: string,
): Promise<PaymentStatus> {
  const state = await loadWeek(ctx, weekId);
  if (state.paid) throw refusal(409, 'PRIZE_ALREADY_PAID', `${weekId} is already paid`);
  requireApproval(weekId, state);
  const rpc = requireRpc(ctx);
  const recorded = await recordedFor(ctx, signature);
  if (recorded) {
    await refuseLogged(ctx, weekId, state, signature, alreadyRecorded(signature, recorded.week_id));
  }
  if (state.prepared.length === 0 && ctx.treasury.length === 0) {
    throw refusal(
      409,
      'NO_PENDING_PAYMENT',
      `no payment is prepared for ${weekId}: run prize:prepare --week ${weekId} (or prepare it in the console) and send a transfer carrying its reference key and memo`,
    );
  }
  const tx = await onChain(() => rpc.finalizedTransaction(signature));
  if (tx === null) {
    const status = await onChain(() => rpc.status(signature));
    if (status === 'unknown') {
      await refuseLogged(
        ctx,
        weekId,
        state,
        signature,
        refusal(404, 'TX_NOT_FOUND', `the Solana RPC knows no transaction ${signature}`),
      );
    }
    throw refusal(
      409,
      'TX_NOT_FINALIZED',
      `transaction ${signature} is ${status}, not finalized yet; try again in a minute`,
    );
  }
  const verdict = judge(ctx, weekId, state, tx);
  if (!verdict.ok) {
    await refuseLogged(ctx, weekId, state, signature, new Refused(verdict.code, verdict.reason));
  } else {
    await recordPaid(ctx, weekId, state, verdict.value);
  }
  return paymentStatus(ctx, weekId);
}

/** One week's open payment: recorded once found, expired once it can no longer be paid. */
async function finishWeek(ctx: PaymentContext, rpc: ChainRpc, weekId: string): Promise<void> {
  const state = await loadWeek(ctx, weekId);
  if (state.paid || state.open.length === 0 || !state.approval) return;
  const found = await searchChain(ctx, rpc, weekId, state);
  if (found.paid) {
    await recordPaid(ctx, weekId, state, found.paid);
    return;
  }
  let height: bigint | undefined;
  const finalizedHeight = async () => (height ??= await rpc.finalizedBlockHeight());
  for (const pending of state.open) {
    if ((await stillPayable(ctx, rpc, pending, finalizedHeight)) === null) {
      await expire(ctx, pending, expiryReason(pending));
    }
  }
}

/**
 * The maintenance task: every week with an open payment is looked for again, each on its own. A
 * week that cannot be checked is reported once all the others were (the scheduler logs the
 * error), never stopping them; only an RPC that is down ends the run, for the next to try all.
 */
export async function finishPendingPayments(context: PaymentContext): Promise<void> {
  const ctx = { ...context, operator: context.operator ?? SCHEDULER };
  const rpc = ctx.rpc;
  if (rpc === undefined) return;
  const weeks = await ctx.db
    .selectFrom('prize_events')
    .select('week_id')
    .distinct()
    .where('step', '=', 'pending')
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom('prize_events as later')
            .select('later.id')
            .whereRef('later.week_id', '=', 'prize_events.week_id')
            .where('later.step', '=', 'paid'),
        ),
      ),
    )
    .orderBy('week_id')
    .execute();
  const stuck: string[] = [];
  for (const { week_id } of weeks) {
    try {
      await finishWeek(ctx, rpc, week_id);
    } catch (error) {
      if (error instanceof ChainUnavailable && error.code === 'CHAIN_UNAVAILABLE') throw error;
      stuck.push(`${week_id}: ${(error as Error).message}`);
    }
  }
  if (stuck.length > 0) {
    throw new Error(
      `${stuck.length} prize week(s) could not be checked (every other week was): ${stuck.join('; ')}`,
    );
  }
}
