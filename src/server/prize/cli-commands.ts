import { PLAYER_NAME_MAX } from '#shared/api/game.ts';
import { replayPageAddress } from '#shared/api/paths.ts';
import { machineSigns, type RunStatistics } from '#shared/game/run-statistics.ts';
import {
  limitOption,
  parseOptions,
  requiredOption,
  reasonArg,
  siteOrigin,
  UsageError,
  utc,
  weekOption,
  type CliCommand,
  type CliContext,
  type IsoWeek,
} from '../cli-command.ts';
import { isSignature } from '../chain/verify.ts';
import { cliOperator } from '../db/operator-log.ts';
import { HttpError } from '../http-error.ts';
import {
  paymentContext,
  preparePayment,
  recordPaymentBySignature,
  type PaymentContext,
} from './payments.ts';
import {
  approveRun,
  closedWeek,
  disqualifyRun,
  recordReview,
  reviewWeek,
  withdrawApproval,
} from './review.ts';

const REVIEW_DEFAULT = 10;
const PROGRAM = 'npm run admin --';

function requiredWeek(values: { week?: string }): IsoWeek {
  const id = requiredOption(values, 'week');
  return weekOption(id, id);
}

/** Tells the operator why nothing was recorded; the command's exit code. */
function refuse(ctx: Pick<CliContext, 'print'>, message: string): number {
  ctx.print(`Refused: ${message}. Nothing recorded.`);
  return 1;
}

/** Where anyone can watch a run's replay (the replay viewer of issue 21, deliverable 2). */
function replayUrl(ctx: CliContext, entryId: number): string {
  return `${siteOrigin(ctx.config)}${replayPageAddress(entryId)}`;
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

const prizeReviewCommand: CliCommand = {
  usage: 'prize:review [--week 2026-W47] [--limit 10]',
  summary:
    "The week's best runs (last week by default): who can be paid, each run replayed and its address to watch. Records which runs and wallets you were shown.",
  async run(ctx, args) {
    const { values } = parseOptions(args, ['week', 'limit']);
    const week = weekOption(values.week, closedWeek(ctx.clock.now()).id);
    const limit = limitOption(values.limit, REVIEW_DEFAULT, 100);
    const now = ctx.clock.now();
    const review = await reviewWeek(ctx.db, week, limit, now);
    ctx.print(
      `Weekly prize ${week.id}: ${utc(week.start)} to ${utc(week.end)} UTC${review.open ? ' (still open: approve after it ends)' : ''}`,
    );
    const { paid } = review;
    if (paid) {
      ctx.print(
        `Paid: ${paid.prize ?? ctx.site.weeklyChallenge.prize} to ${paid.player_name}${paid.wallet_address ? ` (${paid.wallet_address})` : ''}, transaction ${paid.tx_signature ?? paid.tx_url}.`,
      );
    }
    if (review.entries.length === 0) {
      ctx.print('No scores this week.');
      return 0;
    }
    ctx.print(
      `${pad('#', 3, true)}  ${pad('Player', PLAYER_NAME_MAX)}  ${pad('Score', 6, true)}  ${pad('Level', 5, true)}  ${pad('Tasks', 5, true)}  ${pad('Power', 5, true)}  ${pad('Time', 6, true)}  ${pad('Jumps', 5, true)}  Payable`,
    );
    review.entries.forEach(({ row, wallet, jumps, statistics, why }, index) => {
      const status = why === null ? `yes: wallet ${wallet!}` : `no: ${why}`;
      ctx.print(
        `${pad(index + 1, 3, true)}  ${pad(row.player_name, PLAYER_NAME_MAX)}  ${pad(row.score, 6, true)}  ${pad(row.level, 5, true)}  ${pad(row.tasks_completed, 5, true)}  ${pad(row.power_ups_collected, 5, true)}  ${pad(minutes(row.game_time), 6, true)}  ${pad(jumps ?? '?', 5, true)}  ${status}`,
      );
      ctx.print(
        `     run ${row.run_id}  entry #${row.id}  submitted ${utc(row.created_at)}  watch ${replayUrl(ctx, row.id)}`,
      );
      ctx.print(`     ${statisticsLine(statistics)}`);
      ctx.print(`     ${signsLine(statistics)}`);
    });

    // The record shows which runs and wallets the operator was shown; approval checks them.
    await recordReview(ctx.db, review, now);
    ctx.print('');
    const best = review.entries.find((e) => e.why === null);
    if (best === undefined) {
      ctx.print('No payable run in this list: the prize goes to members with a linked wallet.');
    } else if (!paid) {
      ctx.print(
        `Best payable run: ${best.row.player_name} with ${best.row.score}. Watch its replay, then: ${PROGRAM} prize:approve --week ${week.id} --run=${best.row.run_id}`,
      );
    }
    return 0;
  },
};

const prizeApproveCommand: CliCommand = {
  // `--run=ID`: a run id may begin with '-', which parseArgs would take for an option.
  usage: 'prize:approve --week 2026-W47 --run=RUN_ID [--confirm-wallet=ADDRESS]',
  summary:
    "Records the operator's decision, once per week: this reviewed run of a member with a proven wallet wins it. A wallet changed since the review needs --confirm-wallet.",
  async run(ctx, args) {
    const { values } = parseOptions(args, ['week', 'run', 'confirm-wallet']);
    const week = requiredWeek(values);
    const runId = requiredOption(values, 'run');
    const approval = await approveRun(
      ctx.db,
      ctx.site,
      cliOperator(),
      week,
      runId,
      values['confirm-wallet'],
      ctx.clock.now(),
    );
    if (approval.walletBefore !== null) {
      ctx.print(
        `Warning: the wallet changed since the review (${approval.walletBefore} then, ${approval.wallet} now); approved with --confirm-wallet.`,
      );
    }
    if (approval.passedOver) {
      ctx.print(
        `Note: ${approval.passedOver.player_name} placed first with ${approval.passedOver.score}; this approval passes over them.`,
      );
    }
    ctx.print(
      `Approved run ${runId}: ${approval.entry.player_name}, score ${approval.entry.score}, ${week.id}. Pay ${ctx.site.weeklyChallenge.prize} to ${approval.wallet}, then: ${PROGRAM} prize:paid --week ${week.id} --tx <transaction signature>`,
    );
    return 0;
  },
};

const prizeWithdrawCommand: CliCommand = {
  usage: 'prize:withdraw --week 2026-W47 --reason "kept in the log"',
  summary:
    "Withdraws the week's approval before it is paid (refused while a prepared payment may still land); the week goes back to review. Logged.",
  async run(ctx, args) {
    const { values } = parseOptions(args, ['week', 'reason']);
    const week = requiredWeek(values);
    const reason = reasonArg(requiredOption(values, 'reason'));
    const approval = await withdrawApproval(ctx.db, cliOperator(), week, reason, ctx.clock.now());
    ctx.print(
      `Withdrew the approval of ${approval.player_name} (run ${approval.run_id}) for ${week.id}; the week is back in review.`,
    );
    return 0;
  },
};

const prizeDisqualifyCommand: CliCommand = {
  usage: 'prize:disqualify --run=RUN_ID --reason "shown on the board"',
  summary:
    'Disqualifies a run with a public reason: it leaves the weekly board and the review, and an approval of it is withdrawn; a run its week was paid to cannot be. Logged.',
  async run(ctx, args) {
    const { values } = parseOptions(args, ['run', 'reason']);
    const runId = requiredOption(values, 'run');
    const reason = reasonArg(requiredOption(values, 'reason'));
    const { withdrew } = await disqualifyRun(ctx.db, cliOperator(), runId, reason, ctx.clock.now());
    ctx.print(
      `Disqualified run ${runId}${withdrew ? '; its approval is withdrawn' : ''}. It leaves the weekly board.`,
    );
    return 0;
  },
};

/** The payment service over the CLI's context (the same as the console's). */
function cliPayments(ctx: CliContext): PaymentContext {
  return paymentContext(ctx.config, { db: ctx.db, site: ctx.site, clock: ctx.clock });
}

/**
 * The command with a service's refusal (an HttpError) printed as a line, exit code 1: nothing
 * was recorded. Anything else (a usage error, a bug) is thrown.
 */
function refusalsPrinted(command: CliCommand): CliCommand {
  return {
    ...command,
    async run(ctx, args) {
      try {
        return await command.run(ctx, args);
      } catch (error) {
        if (error instanceof HttpError) return refuse(ctx, error.message.replace(/^Refused: /, ''));
        throw error;
      }
    },
  };
}

const prizePrepareCommand: CliCommand = {
  usage: 'prize:prepare --week 2026-W47',
  summary:
    "Prepares the approved week's payment: the amount, the wallet, and the reference key and memo the transfer must carry (the console does this itself).",
  async run(ctx, args) {
    const { values } = parseOptions(args, ['week']);
    const week = requiredWeek(values);
    const p = await preparePayment(cliPayments(ctx), week.id);
    ctx.print(
      `Pay ${p.prize} (${p.lamports} lamports) to ${p.recipient} (${p.playerName}) in one transaction that carries the reference key ${p.reference} as a read-only account of the transfer and the memo "${p.memo}". Then: ${PROGRAM} prize:paid --week ${week.id} --tx <transaction signature>`,
    );
    return 0;
  },
};

const prizePaidCommand: CliCommand = {
  usage: 'prize:paid --week 2026-W47 --tx SIGNATURE',
  summary:
    "Records the week's payment once the transaction is verified on chain at finalized: the prepared reference and memo, the prize to the approved wallet, the payer in PRIZE_TREASURY when set.",
  async run(ctx, args) {
    const { values } = parseOptions(args, ['week', 'tx']);
    const week = requiredWeek(values);
    const tx = requiredOption(values, 'tx').trim();
    if (!isSignature(tx)) {
      throw new UsageError('--tx must be a transaction signature (base58 of 64 bytes)');
    }
    const paid = await recordPaymentBySignature(cliPayments(ctx), week.id, tx);
    ctx.print(
      `Verified and recorded: ${paid.prize} paid to ${paid.playerName} (${paid.recipient}) for ${week.id}, transaction ${tx}, slot ${paid.slot}, ${paid.blockTime}. Recent Winners lists it.`,
    );
    return 0;
  },
};

/** The weekly prize's operator commands, by name, for the CLI's registry. */
export const prizeCliCommands: Record<string, CliCommand> = {
  'prize:review': prizeReviewCommand,
  'prize:approve': refusalsPrinted(prizeApproveCommand),
  'prize:withdraw': refusalsPrinted(prizeWithdrawCommand),
  'prize:disqualify': refusalsPrinted(prizeDisqualifyCommand),
  'prize:prepare': refusalsPrinted(prizePrepareCommand),
  'prize:paid': refusalsPrinted(prizePaidCommand),
};
