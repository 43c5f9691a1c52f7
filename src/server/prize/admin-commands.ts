import { base58 } from '@scure/base';
import { PLAYER_NAME_MAX } from '#shared/api/game.ts';
import { replayPageAddress } from '#shared/api/paths.ts';
import { machineSigns, type RunStatistics } from '#shared/game/run-statistics.ts';
import { isoWeekId, WEEK_MS } from '#shared/time.ts';
import {
  limitOption,
  parseOptions,
  requiredOption,
  UsageError,
  utc,
  weekOption,
  type AdminCommand,
  type AdminContext,
  type IsoWeek,
} from '../cli/command.ts';
import { verifyStanding } from '../game/admin-commands.ts';
import {
  findRuns,
  runStatisticsByRunId,
  weekEntry,
  weekStandings,
  type StandingRow,
} from '../game/repository.ts';
import { HttpError } from '../http-error.ts';
import { findWallet, findWallets, lockWallet } from '../wallet/repository.ts';
import type { PrizeStep } from '../db/database.ts';
import {
  appendPrizeEvent,
  weekEvents,
  type NewPrizeEvent,
  type PrizeEventRow,
} from './repository.ts';
import {
  paymentContext,
  preparePayment,
  recordPaymentBySignature,
  type PaymentContext,
} from './payments.ts';

const REVIEW_DEFAULT = 10;
const PROGRAM = 'npm run admin --';

function requiredWeek(values: { week?: string }): IsoWeek {
  const id = requiredOption(values, 'week');
  return weekOption(id, id);
}

/** Tells the operator why nothing was recorded; the command's exit code. */
function refuse(ctx: Pick<AdminContext, 'print'>, message: string): number {
  ctx.print(`Refused: ${message}. Nothing recorded.`);
  return 1;
}

/** Appends a step to the week's prize record, about `entry` (a standing, or the step before). */
function recordStep(
  ctx: Pick<AdminContext, 'db'>,
  week: IsoWeek,
  step: PrizeStep,
  entry: Pick<PrizeEventRow, 'run_id' | 'user_id' | 'player_name' | 'score'>,
  details: Pick<NewPrizeEvent, 'wallet_address' | 'prize' | 'tx_signature' | 'created_at'>,
): Promise<number> {
  const { run_id, user_id, player_name, score } = entry;
  return appendPrizeEvent(ctx.db, {
    week_id: week.id,
    step,
    run_id,
    user_id,
    player_name,
    score,
    ...details,
  });
}

/**
 * Where anyone can watch a run's replay (the replay viewer of issue 21, deliverable 2).
 * PUBLIC_ORIGIN when set; the default local server otherwise.
 */
export function replayUrl(ctx: AdminContext, entryId: number): string {
  const origin = ctx.config.publicOrigin ?? `http://localhost:${ctx.config.port}`;
  return `${origin}${replayPageAddress(entryId)}`;
}

/** A run's statistics on one line for the reviewer (they point at a run, never refuse one). */
function statisticsLine(stats: RunStatistics | undefined): string {
  if (stats === undefined) return 'statistics: none stored';
  return [
    `statistics: ${stats.jumps} jumps`,
    `interval median ${stats.jumpIntervalMedianMs} ms, spread (CV) ${stats.jumpIntervalCv}`,
    `aim spread ${stats.aimSpreadPx} px`,
    `edge margin min ${stats.edgeMarginMinPx} / median ${stats.edgeMarginMedianPx} px`,
    `reaction median ${stats.reactionMedianMs} ms (${Math.round(stats.fastReactionShare * 100)} % under 100 ms)`,
    `top speed ${stats.topSpeed}`,
  ].join(' · ');
}

function signsLine(stats: RunStatistics | undefined): string {
  if (stats === undefined) return 'machine-like signs: not measured';
  const signs = machineSigns(stats);
  return `machine-like signs: ${signs.length === 0 ? 'none' : signs.map((s) => s.label).join('; ')}`;
}

function pad(value: string | number, width: number, right = false): string {
  const text = String(value);
  return right ? text.padStart(width) : text.padEnd(width);
}

function minutes(seconds: number): string {
  return `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, '0')}`;
}

const paidStep = (events: PrizeEventRow[]) => events.find((e) => e.step === 'paid');
const lastApproval = (events: PrizeEventRow[]) => events.findLast((e) => e.step === 'approved');

/** Why a standing cannot be paid, or undefined when it can. */
function notPayable(row: StandingRow, wallet: string | undefined): string | undefined {
  if (row.user_id === null) return 'visitor (no account)';
  if (wallet === undefined) return 'member without a linked wallet';
  return undefined;
}

export const prizeReviewCommand: AdminCommand = {
  usage: 'prize:review [--week 2026-W47] [--limit 10]',
  summary:
    "The week's best runs (last week by default): who can be paid, each run replayed and its address to watch.",
  async run(ctx, args) {
    const { values } = parseOptions(args, ['week', 'limit']);
    const week = weekOption(values.week, isoWeekId(ctx.clock.now() - WEEK_MS));
    const limit = limitOption(values.limit, REVIEW_DEFAULT, 100);
    const now = ctx.clock.now();
    const open = now < week.end;
    ctx.print(
      `Weekly prize ${week.id}: ${utc(week.start)} to ${utc(week.end)} UTC${open ? ' (still open: approve after it ends)' : ''}`,
    );
    const events = await weekEvents(ctx.db, week.id);
    const paid = paidStep(events);
    if (paid) {
      ctx.print(
        `Paid: ${paid.prize ?? ctx.site.weeklyChallenge.prize} to ${paid.player_name}${paid.wallet_address ? ` (${paid.wallet_address})` : ''}, transaction ${paid.tx_signature ?? paid.tx_url}.`,
      );
    }
    const rows = await weekStandings(ctx.db, week.start, limit);
    if (rows.length === 0) {
      ctx.print('No scores this week.');
      return 0;
    }
    const runIds = rows.map((r) => r.run_id);
    const runs = new Map((await findRuns(ctx.db, runIds)).map((r) => [r.id, r]));
    const statistics = await runStatisticsByRunId(ctx.db, runIds);
    const memberIds = rows.flatMap((r) => (r.user_id === null ? [] : [r.user_id]));
    const wallets = new Map(
      (await findWallets(ctx.db, memberIds)).map((w) => [w.user_id, w.address]),
    );

    ctx.print(
      `${pad('#', 3, true)}  ${pad('Player', PLAYER_NAME_MAX)}  ${pad('Score', 6, true)}  ${pad('Level', 5, true)}  ${pad('Tasks', 5, true)}  ${pad('Power', 5, true)}  ${pad('Time', 6, true)}  ${pad('Jumps', 5, true)}  Payable`,
    );
    const payable: StandingRow[] = [];
    rows.forEach((row, index) => {
      const run = runs.get(row.run_id);
      const wallet = row.user_id === null ? undefined : wallets.get(row.user_id);
      const verdict = verifyStanding(row, run);
      const why = notPayable(row, wallet);
      if (why === undefined && verdict.ok) payable.push(row);
      const status =
        why !== undefined
          ? `no: ${why}`
          : verdict.ok
            ? `yes: wallet ${wallet!}`
            : `no: replay MISMATCH (${verdict.reason})`;
      ctx.print(
        `${pad(index + 1, 3, true)}  ${pad(row.player_name, PLAYER_NAME_MAX)}  ${pad(row.score, 6, true)}  ${pad(row.level, 5, true)}  ${pad(row.tasks_completed, 5, true)}  ${pad(row.power_ups_collected, 5, true)}  ${pad(minutes(row.game_time), 6, true)}  ${pad(run?.inputs?.length ?? '?', 5, true)}  ${status}`,
      );
      ctx.print(
        `     run ${row.run_id}  entry #${row.id}  submitted ${utc(row.created_at)}  watch ${replayUrl(ctx, row.id)}`,
      );
      const stats = statistics.get(row.run_id);
      ctx.print(`     ${statisticsLine(stats)}`);
      ctx.print(`     ${signsLine(stats)}`);
    });

    // The record shows which runs the operator was shown; approval needs this step first.
    for (const row of payable) {
      await recordStep(ctx, week, 'reviewed', row, {
        wallet_address: wallets.get(row.user_id!) ?? null,
        created_at: now,
      });
    }
    ctx.print('');
    const best = payable[0];
    if (best === undefined) {
      ctx.print('No payable run in this list: the prize goes to members with a linked wallet.');
    } else if (!paid) {
      ctx.print(
        `Best payable run: ${best.player_name} with ${best.score}. Watch its replay, then: ${PROGRAM} prize:approve --week ${week.id} --run=${best.run_id}`,
      );
    }
    return 0;
  },
};

export const prizeApproveCommand: AdminCommand = {
  // `--run=ID`: a run id may begin with '-', which parseArgs would take for an option.
  usage: 'prize:approve --week 2026-W47 --run=RUN_ID [--confirm-wallet=ADDRESS]',
  summary:
    "Records the operator's decision, once per week: this reviewed run of a member with a proven wallet wins it. A wallet changed since the review needs --confirm-wallet.",
  async run(ctx, args) {
    const { values } = parseOptions(args, ['week', 'run', 'confirm-wallet']);
    const week = requiredWeek(values);
    const runId = requiredOption(values, 'run');
    const now = ctx.clock.now();

    if (now < week.end) return refuse(ctx, `${week.id} is still open until ${utc(week.end)} UTC`);
    const events = await weekEvents(ctx.db, week.id);
    if (paidStep(events)) return refuse(ctx, `${week.id} is already paid`);
    const approved = lastApproval(events);
    if (approved) {
      // The approval told the operator whom to pay: a payment may already be on its way, so a
      // second one could pay the week twice (docs/decisions/019-append-only-records-and-wallet-changes.md).
      return refuse(
        ctx,
        `${week.id} is already approved (${approved.player_name}, run ${approved.run_id}, wallet ${approved.wallet_address}, ${utc(approved.created_at)} UTC); once that payment is sent, record it with ${PROGRAM} prize:paid --week ${week.id} --tx <transaction signature>`,
      );
    }
    const entry = await weekEntry(ctx.db, runId, week.start);
    if (!entry) return refuse(ctx, `run ${runId} has no leaderboard entry in ${week.id}`);
    if (entry.user_id === null) {
      return refuse(
        ctx,
        `run ${runId} is a visitor's (${entry.player_name}): the prize goes to members with a linked wallet`,
      );
    }
    if (!(await findWallet(ctx.db, entry.user_id))) {
      return refuse(ctx, `${entry.player_name} has not linked a wallet`);
    }
    const [run] = await findRuns(ctx.db, [runId]);
    const verdict = verifyStanding(entry, run);
    if (!verdict.ok) return refuse(ctx, `run ${runId} does not replay (${verdict.reason})`);
    const reviewed = events.findLast((e) => e.step === 'reviewed' && e.run_id === runId);
    if (!reviewed) {
      return refuse(
        ctx,
        `run ${runId} has not been through prize:review for ${week.id}; review it and watch its replay first`,
      );
    }

    // The wallet is read and the approval written (or the refusal's reason returned) while the member's wallet row is held, so a
    // wallet change (wallet/service.ts) either lands before (and is caught here) or waits and is
    // then refused while this approval is open.
    const outcome = await ctx.db.transaction().execute(async (trx) => {
      const wallet = await lockWallet(trx, entry.user_id!);
      if (!wallet) return `${entry.player_name} has not linked a wallet`;
      if (
        wallet.address !== reviewed.wallet_address &&
        values['confirm-wallet'] !== wallet.address
      ) {
        return `${entry.player_name}'s wallet is now ${wallet.address}, not ${reviewed.wallet_address} as prize:review showed at ${utc(reviewed.created_at)} UTC. A taken-over account changes wallets too: check with the member that the new one is theirs, then approve with --confirm-wallet=${wallet.address}`;
      }
      await recordStep({ db: trx }, week, 'approved', entry, {
        wallet_address: wallet.address,
        prize: ctx.site.weeklyChallenge.prize,
        created_at: now,
      });
      return wallet;
    });
    if (typeof outcome === 'string') return refuse(ctx, outcome);
    const wallet = outcome;
    if (wallet.address !== reviewed.wallet_address) {
      ctx.print(
        `Warning: the wallet changed since the review (${reviewed.wallet_address} then, ${wallet.address} now); approved with --confirm-wallet.`,
      );
    }
    const standings = await weekStandings(ctx.db, week.start, 1);
    if (standings[0] && standings[0].run_id !== runId) {
      ctx.print(
        `Note: ${standings[0].player_name} placed first with ${standings[0].score}; this approval passes over them.`,
      );
    }
    ctx.print(
      `Approved run ${runId}: ${entry.player_name}, score ${entry.score}, ${week.id}. Pay ${ctx.site.weeklyChallenge.prize} to ${wallet.address}, then: ${PROGRAM} prize:paid --week ${week.id} --tx <transaction signature>`,
    );
    return 0;
  },
};

/** A Solana transaction signature: base58 of 64 bytes. */
export function isTransactionSignature(value: string): boolean {
  try {
    return base58.decode(value).length === 64;
  } catch {
    return false;
  }
}

/** The payment service over the CLI's context (the same as the console's). */
function cliPayments(ctx: AdminContext): PaymentContext {
  return paymentContext(ctx.config, { db: ctx.db, site: ctx.site, clock: ctx.clock });
}

/** A service refusal as the CLI prints it; anything else is a bug and is thrown. */
function refusedBy(ctx: AdminContext, error: unknown): number {
  if (error instanceof HttpError) return refuse(ctx, error.message.replace(/^Refused: /, ''));
  throw error;
}

export const prizePrepareCommand: AdminCommand = {
  usage: 'prize:prepare --week 2026-W47',
  summary:
    "Prepares the approved week's payment: the amount, the wallet, and the reference key and memo the transfer must carry (the console does this itself).",
  async run(ctx, args) {
    const { values } = parseOptions(args, ['week']);
    const week = requiredWeek(values);
    try {
      const p = await preparePayment(cliPayments(ctx), week.id);
      ctx.print(
        `Pay ${p.prize} (${p.lamports} lamports) to ${p.recipient} (${p.playerName}) in one transaction that carries the reference key ${p.reference} as a read-only account of the transfer and the memo "${p.memo}". Then: ${PROGRAM} prize:paid --week ${week.id} --tx <transaction signature>`,
      );
      return 0;
    } catch (error) {
      return refusedBy(ctx, error);
    }
  },
};

export const prizePaidCommand: AdminCommand = {
  usage: 'prize:paid --week 2026-W47 --tx SIGNATURE',
  summary:
    "Records the week's payment once the transaction is verified on chain at finalized: the prepared reference and memo, the prize to the approved wallet, the payer in PRIZE_TREASURY when set.",
  async run(ctx, args) {
    const { values } = parseOptions(args, ['week', 'tx']);
    const week = requiredWeek(values);
    const tx = requiredOption(values, 'tx').trim();
    if (!isTransactionSignature(tx)) {
      throw new UsageError('--tx must be a transaction signature (base58 of 64 bytes)');
    }
    try {
      const paid = await recordPaymentBySignature(cliPayments(ctx), week.id, tx);
      ctx.print(
        `Verified and recorded: ${paid.prize} paid to ${paid.playerName} (${paid.recipient}) for ${week.id}, transaction ${tx}, slot ${paid.slot}, ${paid.blockTime}. Recent Winners lists it.`,
      );
      return 0;
    } catch (error) {
      return refusedBy(ctx, error);
    }
  },
};

/** The weekly prize's operator commands, by name, for the admin CLI's registry. */
export const prizeAdminCommands: Record<string, AdminCommand> = {
  'prize:review': prizeReviewCommand,
  'prize:approve': prizeApproveCommand,
  'prize:prepare': prizePrepareCommand,
  'prize:paid': prizePaidCommand,
};
