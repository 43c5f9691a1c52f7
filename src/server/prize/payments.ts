import { MINUTE_MS } from '#shared/time.ts';
import { randomBytes } from 'node:crypto';
import { base58 } from '@scure/base';
import type { Kysely } from 'kysely';
import type { PaymentStatus, PreparedPayment } from '#shared/api/chain.ts';
import type { ErrorCode } from '#shared/api/error-codes.ts';
import { explorerTxUrl, type SiteConfig } from '#shared/site.ts';
import { ChainUnavailable, createChainRpc, NO_RPC_MESSAGE, type ChainRpc } from '../chain/rpc.ts';
import {
  prizeLamports,
  prizeMemo,
  verifyPayment,
  type ExpectedPayment,
  type Refusal,
  type VerifiedPayment,
} from '../chain/verify.ts';
import type { AppConfig } from '../config.ts';
import type { Database } from '../db/database.ts';
import { HttpError } from '../http-error.ts';
import { isUniqueViolation } from '../db/errors.ts';
import { appendPrizeEvent, weekEvents, type PrizeEventRow } from './repository.ts';
import type { Clock } from '../clock.ts';

/**
 * A prepared payment that no finalized transaction has matched for this long expires: its
 * blockhash (about 90 s) ran out long before, so no transaction carrying its reference can
 * still land (docs/decisions/023-prize-paid-on-chain.md).
 */
export const PENDING_EXPIRY_MS = 30 * MINUTE_MS;

/** What paying a prize needs: the record, the site's prize and the chain. */
export interface PaymentContext {
  db: Kysely<Database>;
  site: SiteConfig;
  /** PRIZE_TREASURY's addresses (any payer when empty). */
  treasury: readonly string[];
  /** Undefined without SOLANA_RPC_URL: nothing can be recorded as paid. */
  rpc: ChainRpc | undefined;
  clock: Clock;
}

/** The site's RPC client, or undefined without SOLANA_RPC_URL. */
export function chainRpcFor(config: Pick<AppConfig, 'solana'>): ChainRpc | undefined {
  const { rpcUrl, timeoutMs } = config.solana;
  return rpcUrl === undefined ? undefined : createChainRpc(rpcUrl, timeoutMs);
}

export function paymentContext(
  config: Pick<AppConfig, 'solana'>,
  rest: Omit<PaymentContext, 'treasury' | 'rpc'>,
): PaymentContext {
  return { ...rest, treasury: config.solana.treasury, rpc: chainRpcFor(config) };
}

const refusal = (status: number, code: ErrorCode, message: string) =>
  new HttpError(status, message, code);

/** The RPC's failure as the caller's answer: 503, nothing recorded, tried again later. */
function unavailable(error: ChainUnavailable): HttpError {
  return refusal(
    503,
    'CHAIN_UNAVAILABLE',
    `${error.message}; nothing was recorded, try again in a minute (a pending payment is also checked every ten minutes)`,
  );
}

function requireRpc(ctx: PaymentContext): ChainRpc {
  if (ctx.rpc === undefined) throw refusal(503, 'CHAIN_NOT_CONFIGURED', NO_RPC_MESSAGE);
  return ctx.rpc;
}

interface WeekPayment {
  approval: PrizeEventRow | undefined;
  paid: PrizeEventRow | undefined;
  /** Prepared payments not expired, newest last. */
  open: PrizeEventRow[];
  lastExpired: PrizeEventRow | undefined;
}

function weekPayment(events: PrizeEventRow[]): WeekPayment {
  const paid = events.find((e) => e.step === 'paid');
  const expired = new Set(events.filter((e) => e.step === 'expired').map((e) => e.reference));
  return {
    approval: events.findLast((e) => e.step === 'approved'),
    paid,
    open: paid ? [] : events.filter((e) => e.step === 'pending' && !expired.has(e.reference)),
    lastExpired: events.findLast((e) => e.step === 'expired'),
  };
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
      blockTime: p.block_time === null ? null : new Date(p.block_time).toISOString(),
      explorerUrl: p.tx_signature ? explorerTxUrl(ctx.site, p.tx_signature) : p.tx_url,
    };
  }
  const pending = state.open.at(-1);
  if (pending) {
    return {
      ...base,
      state: 'pending',
      recipient: pending.wallet_address!,
      lamports: String(pending.lamports),
      reference: pending.reference,
      memo: pending.memo,
      detail:
        detail ??
        `waiting for a finalized transaction carrying reference ${pending.reference} (prepared ${new Date(pending.created_at).toISOString()})`,
    };
  }
  if (state.lastExpired) {
    return { ...base, state: 'expired', detail: detail ?? state.lastExpired.reason };
  }
  // Nothing can be paid without an RPC to verify it: the console says how to set one.
  return { ...base, state: 'approved', detail: detail ?? (ctx.rpc ? null : NO_RPC_MESSAGE) };
}

export async function paymentStatus(ctx: PaymentContext, weekId: string): Promise<PaymentStatus> {
  return statusOf(ctx, weekId, weekPayment(await weekEvents(ctx.db, weekId)));
}

/** The week's payment so far; refused unless the week is approved and not paid yet. */
async function payableWeek(ctx: PaymentContext, weekId: string) {
  const state = weekPayment(await weekEvents(ctx.db, weekId));
  if (state.paid) throw refusal(409, 'PRIZE_ALREADY_PAID', `${weekId} is already paid`);
  return { state, approval: requireApproval(weekId, state) };
}

/**
 * Prepares the week's payment: a fresh reference key and the memo naming the week, recorded as
 * a pending step. While one is pending the same one is answered, so two consoles never send
 * two payments that could both land.
 */
export async function preparePayment(ctx: PaymentContext, weekId: string): Promise<PaymentStatus> {
  const { state, approval } = await payableWeek(ctx, weekId);
  requireRpc(ctx);
  if (state.open.length > 0) return statusOf(ctx, weekId, state);
  const prize = approval.prize ?? ctx.site.weeklyChallenge.prize;
  const lamports = prizeLamports(prize);
  if (lamports === undefined) {
    throw refusal(
      409,
      'PRIZE_NOT_SOL',
      `the prize "${prize}" is not an amount of SOL (such as "1 SOL"), so no transfer can be checked against it`,
    );
  }
  await appendPrizeEvent(ctx.db, {
    week_id: weekId,
    step: 'pending',
    run_id: approval.run_id,
    user_id: approval.user_id,
    player_name: approval.player_name,
    score: approval.score,
    wallet_address: approval.wallet_address,
    prize,
    reference: base58.encode(randomBytes(32)),
    memo: prizeMemo(ctx.site.brand, weekId),
    lamports: Number(lamports),
    created_at: ctx.clock.now(),
  });
  return paymentStatus(ctx, weekId);
}

/**
 * The console's payment, prepared: the week's pending payment and a recent blockhash from the
 * site's RPC, fetched first so an RPC that is down records nothing.
 */
export async function preparePaymentWithLifetime(
  ctx: PaymentContext,
  weekId: string,
): Promise<PreparedPayment> {
  // A week that cannot be paid is refused as such (409), whether or not the RPC answers.
  await payableWeek(ctx, weekId);
  const rpc = requireRpc(ctx);
  let lifetime: PreparedPayment['lifetime'];
  try {
    const latest = await rpc.latestBlockhash();
    lifetime = {
      blockhash: latest.blockhash,
      lastValidBlockHeight: latest.lastValidBlockHeight.toString(),
    };
  } catch (error) {
    if (error instanceof ChainUnavailable) throw unavailable(error);
    throw error;
  }
  return { ...(await preparePayment(ctx, weekId)), lifetime };
}

const expectation = (ctx: PaymentContext, pending: PrizeEventRow): ExpectedPayment => ({
  recipient: pending.wallet_address!,
  lamports: BigInt(pending.lamports!),
  reference: pending.reference!,
  memo: pending.memo!,
  treasury: ctx.treasury,
});

async function recordedFor(ctx: PaymentContext, signature: string) {
  return ctx.db
    .selectFrom('prize_events')
    .select(['week_id'])
    .where('tx_signature', '=', signature)
    .executeTakeFirst();
}

async function refuseIfRecorded(ctx: PaymentContext, signature: string): Promise<void> {
  const recorded = await recordedFor(ctx, signature);
  if (recorded) {
    throw refusal(
      409,
      'TX_ALREADY_RECORDED',
      `transaction ${signature} is already recorded as the payment of ${recorded.week_id}`,
    );
  }
}

async function recordPaid(
  ctx: PaymentContext,
  pending: PrizeEventRow,
  paid: VerifiedPayment,
): Promise<void> {
  await refuseIfRecorded(ctx, paid.signature);
  try {
    await appendPrizeEvent(ctx.db, {
      week_id: pending.week_id,
      step: 'paid',
      run_id: pending.run_id,
      user_id: pending.user_id,
      player_name: pending.player_name,
      score: pending.score,
      wallet_address: pending.wallet_address,
      prize: pending.prize,
      tx_signature: paid.signature,
      reference: pending.reference,
      memo: pending.memo,
      lamports: Number(paid.received),
      slot: Number(paid.slot),
      block_time: paid.blockTime * 1000,
      created_at: ctx.clock.now(),
    });
  } catch (error) {
    if (isUniqueViolation(error)) {
      throw refusal(
        409,
        'PRIZE_ALREADY_PAID',
        `${pending.week_id} or transaction ${paid.signature} is already recorded`,
      );
    }
    throw error;
  }
}

class Refused extends HttpError {
  constructor(code: Refusal, reason: string) {
    super(422, reason, code);
  }
}

/**
 * Looks for the week's pending payment on chain, the way Solana Pay's validateTransfer does:
 * the finalized signatures naming its reference key, each transaction checked against the
 * payment. The first that passes is recorded paid; one that fails is refused with its reason
 * (the payment stays pending until it expires); none yet answers the pending status.
 */
export async function confirmPayment(
  ctx: PaymentContext,
  weekId: string,
  hint?: string,
): Promise<PaymentStatus> {
  const state = weekPayment(await weekEvents(ctx.db, weekId));
  if (state.paid) return statusOf(ctx, weekId, state);
  requireApproval(weekId, state);
  if (state.open.length === 0) {
    throw refusal(
      409,
      'NO_PENDING_PAYMENT',
      `no payment is prepared for ${weekId}: prepare one in the console (or prize:prepare) first`,
    );
  }
  const rpc = requireRpc(ctx);
  let refused: Refused | undefined;
  try {
    for (const pending of state.open) {
      for (const signature of await rpc.signaturesFor(pending.reference!)) {
        const tx = await rpc.finalizedTransaction(signature);
        if (tx === null) continue;
        const verdict = verifyPayment(tx, expectation(ctx, pending));
        if (verdict.ok) {
          await recordPaid(ctx, pending, verdict.value);
          return paymentStatus(ctx, weekId);
        }
        refused = new Refused(verdict.code, `Refused: ${verdict.reason}`);
      }
    }
    if (refused) throw refused;
    if (hint !== undefined) {
      const status = await rpc.status(hint);
      if (status === 'processed' || status === 'confirmed') {
        return statusOf(
          ctx,
          weekId,
          state,
          `transaction ${hint} is ${status}, not finalized yet; the server checks again`,
        );
      }
    }
  } catch (error) {
    if (error instanceof ChainUnavailable) throw unavailable(error);
    throw error;
  }
  return statusOf(ctx, weekId, state);
}

/**
 * `prize:paid --tx`: the operator names the transaction; it is checked exactly as the console's
 * payment is, against the week's prepared payment, and recorded only when it passes.
 */
export async function recordPaymentBySignature(
  ctx: PaymentContext,
  weekId: string,
  signature: string,
): Promise<PaymentStatus> {
  const state = weekPayment(await weekEvents(ctx.db, weekId));
  if (state.paid) throw refusal(409, 'PRIZE_ALREADY_PAID', `${weekId} is already paid`);
  requireApproval(weekId, state);
  const rpc = requireRpc(ctx);
  await refuseIfRecorded(ctx, signature);
  if (state.open.length === 0) {
    throw refusal(
      409,
      'NO_PENDING_PAYMENT',
      `no payment is prepared for ${weekId}: run prize:prepare --week ${weekId} (or prepare it in the console) and send a transfer carrying its reference key and memo`,
    );
  }
  try {
    const tx = await rpc.finalizedTransaction(signature);
    if (tx === null) {
      const status = await rpc.status(signature);
      throw status === 'unknown'
        ? refusal(404, 'TX_NOT_FOUND', `the Solana RPC knows no transaction ${signature}`)
        : refusal(
            409,
            'TX_NOT_FINALIZED',
            `transaction ${signature} is ${status}, not finalized yet; try again in a minute`,
          );
    }
    let last: Refused | undefined;
    for (const pending of [...state.open].reverse()) {
      const verdict = verifyPayment(tx, expectation(ctx, pending));
      if (verdict.ok) {
        await recordPaid(ctx, pending, verdict.value);
        return paymentStatus(ctx, weekId);
      }
      last ??= new Refused(verdict.code, verdict.reason);
    }
    throw last!;
  } catch (error) {
    if (error instanceof ChainUnavailable) throw unavailable(error);
    throw error;
  }
}

/**
 * The maintenance task: every pending payment is looked for again; one that no finalized
 * transaction matched within PENDING_EXPIRY_MS expires with the reason. An RPC that is down
 * leaves everything as it is for the next run.
 */
export async function finishPendingPayments(ctx: PaymentContext): Promise<void> {
  if (ctx.rpc === undefined) return;
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
    .execute();
  for (const { week_id } of weeks) {
    let reason: string | undefined;
    try {
      const status = await confirmPayment(ctx, week_id);
      if (status.state !== 'pending') continue;
    } catch (error) {
      if (error instanceof HttpError && error.statusCode === 503) return;
      if (!(error instanceof Refused)) throw error;
      reason = error.message;
    }
    const state = weekPayment(await weekEvents(ctx.db, week_id));
    for (const pending of state.open) {
      if (ctx.clock.now() - pending.created_at < PENDING_EXPIRY_MS) continue;
      await appendPrizeEvent(ctx.db, {
        week_id,
        step: 'expired',
        run_id: pending.run_id,
        user_id: pending.user_id,
        player_name: pending.player_name,
        score: pending.score,
        wallet_address: pending.wallet_address,
        prize: pending.prize,
        reference: pending.reference,
        memo: pending.memo,
        lamports: pending.lamports,
        reason:
          reason ??
          `no finalized transaction carried reference ${pending.reference} within ${PENDING_EXPIRY_MS / 60_000} minutes; prepare the payment again`,
        created_at: ctx.clock.now(),
      });
    }
  }
}
