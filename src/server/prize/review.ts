import type { Kysely, Transaction } from 'kysely';
import { REPLAY_SPEEDS } from '#shared/game/constants.ts';
import type { RunStatistics } from '#shared/game/run-statistics.ts';
import { isoWeek, isoWeekId, utc, WEEK_MS, type IsoWeek } from '#shared/time.ts';
import type { SiteConfig } from '#shared/site.ts';
import { refuseUnlessOutranksMember, type RankedOperator } from '../accounts/rank.ts';
import { activeSuspension } from '../suspensions/suspensions.ts';
import type { Database } from '../db/database.ts';
import { recordDecision } from '../db/operator-log.ts';
import { verifyStanding, type ReplayVerdict } from '../game/cli-commands.ts';
import {
  findRuns,
  runStatisticsByRunId,
  weekEntry,
  weekStandings,
  type StandingRow,
} from '../game/repository.ts';
import { HttpError, notFound } from '../http-error.ts';
import { recordLiveEvent } from '../live/record.ts';
import { findWallets, lockWallet } from '../wallet/repository.ts';
import {
  appendPrizeEvent,
  appendWithdrawal,
  runOf,
  weekEvents,
  type PrizeEventRow,
} from './repository.ts';

/**
 * The weekly prize's rules from review to approval (docs/decisions/013 and 022), written once:
 * the CLI's prize:* commands and the console's Prize week are two faces that call these and only
 * format the answer. A review is a read; what an operator saw is recorded by explicit writes
 * (the CLI's prize:review, the console's "watched"), never by a page view.
 */

type Db = Kysely<Database> | Transaction<Database>;

/** The closed week (last week), as prize:review and the console's Prize week default to. */
export function closedWeek(now: number): IsoWeek {
  return isoWeek(isoWeekId(now - WEEK_MS));
}

/** A refusal of the prize rules: 409 with the reason, unless a code says otherwise. */
function refused(message: string, code: 'PRIZE_REFUSED' | 'RUN_DISQUALIFIED' = 'PRIZE_REFUSED') {
  return new HttpError(409, message, code);
}

export const paidStep = (events: PrizeEventRow[]) => events.find((e) => e.step === 'paid');
export const currentApproval = (events: PrizeEventRow[]) =>
  events.findLast((e) => e.step === 'approved');

/** A prepared payment that has not expired: the transfer may still land. */
function paymentInFlight(events: PrizeEventRow[]): boolean {
  const expired = new Set(events.filter((e) => e.step === 'expired').map((e) => e.reference));
  return events.some((e) => e.step === 'pending' && !expired.has(e.reference));
}

/** Why a standing cannot be paid, or null when it can: the one rule both faces show. */
function whyNotPayable(entry: {
  row: Pick<StandingRow, 'user_id'>;
  wallet: string | null;
  suspended: boolean;
  verdict: ReplayVerdict;
}): string | null {
  if (entry.row.user_id === null) return 'visitor (no account)';
  if (entry.suspended) return 'member is suspended';
  if (entry.wallet === null) return 'member without a linked wallet';
  if (!entry.verdict.ok) return `replay mismatch (${entry.verdict.reason})`;
  return null;
}

interface ReviewEntry {
  row: StandingRow;
  wallet: string | null;
  jumps: number | null;
  statistics: RunStatistics | undefined;
  why: string | null;
}

export interface WeekReview {
  week: IsoWeek;
  open: boolean;
  events: PrizeEventRow[];
  paid: PrizeEventRow | undefined;
  approval: PrizeEventRow | undefined;
  entries: ReviewEntry[];
}

/** The week's best runs (disqualified ones are off the board), each with its verdict. Reads only. */
export async function reviewWeek(
  db: Kysely<Database>,
  week: IsoWeek,
  limit: number,
  now: number,
): Promise<WeekReview> {
  const [events, rows] = await Promise.all([
    weekEvents(db, week.id),
    weekStandings(db, week.start, limit),
  ]);
  const runIds = rows.map((r) => r.run_id);
  const memberIds = [...new Set(rows.flatMap((r) => (r.user_id === null ? [] : [r.user_id])))];
  const [runs, statistics, wallets, suspended] = await Promise.all([
    findRuns(db, runIds).then((list) => new Map(list.map((r) => [r.id, r]))),
    runStatisticsByRunId(db, runIds),
    findWallets(db, memberIds).then((list) => new Map(list.map((w) => [w.user_id, w.address]))),
    suspendedAmong(db, memberIds, now),
  ]);
  const entries = rows.map((row) => {
    const run = runs.get(row.run_id);
    const wallet = row.user_id === null ? null : (wallets.get(row.user_id) ?? null);
    const isSuspended = row.user_id !== null && suspended.has(row.user_id);
    const why = whyNotPayable({
      row,
      wallet,
      suspended: isSuspended,
      verdict: verifyStanding(row, run),
    });
    return {
      row,
      wallet,
      jumps: run?.inputs?.length ?? null,
      statistics: statistics.get(row.run_id),
      why,
    };
  });
  return {
    week,
    open: now < week.end,
    events,
    paid: paidStep(events),
    approval: currentApproval(events),
    entries,
  };
}

async function suspendedAmong(db: Db, memberIds: number[], now: number): Promise<Set<number>> {
  const found = await Promise.all(
    memberIds.map(async (id) => ((await activeSuspension(db, id, now)) ? id : null)),
  );
  return new Set(found.filter((id): id is number => id !== null));
}

/**
 * The CLI's prize:review, an explicit operator step: records that the payable runs were shown
 * with their wallets. A run already recorded with the same wallet is not recorded again.
 */
export async function recordReview(
  db: Kysely<Database>,
  review: WeekReview,
  now: number,
): Promise<void> {
  for (const entry of review.entries) {
    if (entry.why !== null) continue;
    const last = review.events.findLast(
      (e) => e.step === 'reviewed' && e.run_id === entry.row.run_id,
    );
    if (last?.wallet_address === entry.wallet) continue;
    await appendReviewed(db, review.week, entry.row, entry.wallet, now);
  }
}

function appendReviewed(
  db: Db,
  week: IsoWeek,
  row: StandingRow,
  wallet: string | null,
  now: number,
): Promise<number> {
  return appendPrizeEvent(db, {
    week_id: week.id,
    step: 'reviewed',
    ...runOf(row),
    wallet_address: wallet,
    created_at: now,
  });
}

/** The closed week's entry for the run, or 404. */
async function closedWeekEntry(db: Db, runId: string, now: number) {
  const week = closedWeek(now);
  const entry = await weekEntry(db, runId, week.start);
  if (!entry) throw notFound(`Run ${runId} has no leaderboard entry in ${week.id}.`);
  return { week, entry };
}

/** The console: the operator opened the run's replay (the watch that follows is timed from it). */
export async function recordReplayOpened(
  db: Kysely<Database>,
  operator: RankedOperator & { id: number },
  runId: string,
  now: number,
): Promise<void> {
  await closedWeekEntry(db, runId, now);
  await db
    .insertInto('replay_opens')
    .values({ operator_id: operator.id, run_id: runId, opened_at: now })
    .execute();
}

/** The shortest time in which a run's replay can be watched to its end (at the fastest speed). */
export function shortestWatchMs(gameTimeSeconds: number): number {
  return Math.floor((gameTimeSeconds * 1000) / Math.max(...REPLAY_SPEEDS));
}

/**
 * The console: the operator watched the run's replay to its end. Accepted once the replay was
 * opened by the same operator at least the run's length at the fastest speed ago; records the
 * watch, the review (the run and the wallet the operator was shown, for approval's wallet check)
 * and the log row together.
 */
export async function recordWatch(
  db: Kysely<Database>,
  operator: RankedOperator & { id: number },
  runId: string,
  now: number,
): Promise<void> {
  const { week, entry } = await closedWeekEntry(db, runId, now);
  const opened = await db
    .selectFrom('replay_opens')
    .select('opened_at')
    .where('run_id', '=', runId)
    .where('operator_id', '=', operator.id)
    .where('opened_at', '<=', now - shortestWatchMs(entry.game_time))
    .executeTakeFirst();
  if (!opened) {
    throw new HttpError(
      409,
      `Watch the replay to its end: this run lasts ${entry.game_time} s, at least ${Math.ceil(shortestWatchMs(entry.game_time) / 1000)} s at the fastest speed.`,
      'REPLAY_NOT_WATCHED',
    );
  }
  const [wallet] = entry.user_id === null ? [] : await findWallets(db, [entry.user_id]);
  await db.transaction().execute(async (trx) => {
    await trx
      .insertInto('replay_watches')
      .values({ operator_id: operator.id, run_id: runId, watched_at: now })
      .execute();
    await appendReviewed(trx, week, entry, wallet?.address ?? null, now);
    await recordDecision(
      trx,
      operator,
      {
        kind: 'replay-watched',
        targetType: 'run',
        targetId: runId,
        targetLabel: entry.player_name,
        reason: 'watched the replay to its end',
        details: { entryId: entry.id, wallet: wallet?.address ?? null },
      },
      now,
    );
  });
}

export interface Approval {
  week: IsoWeek;
  entry: StandingRow;
  wallet: string;
  /** The wallet the review showed, when the approval confirmed a change since. */
  walletBefore: string | null;
  /** The week's first place, when the approval passes over them. */
  passedOver: StandingRow | undefined;
}

/**
 * Approves the closed week for a run: the week ended and is neither paid nor approved; the run is
 * on the board (not disqualified), a member's (not the operator's own), not suspended, with a
 * wallet, replaying to its figures, and reviewed (a console operator has watched it to its end).
 * The wallet is read and the approval written while the member's wallet row is held, so a wallet
 * change lands before (and needs `confirmWallet`) or waits until the week is paid.
 */
export async function approveRun(
  db: Kysely<Database>,
  site: SiteConfig,
  operator: RankedOperator,
  week: IsoWeek,
  runId: string,
  confirmWallet: string | undefined,
  now: number,
): Promise<Approval> {
  if (now < week.end) throw refused(`${week.id} is still open until ${utc(week.end)} UTC`);
  const [run] = await findRuns(db, [runId]);
  const approval = await db.transaction().execute(async (trx) => {
    const events = await weekEvents(trx, week.id);
    if (paidStep(events)) throw refused(`${week.id} is already paid`);
    const approved = currentApproval(events);
    if (approved) {
      // The approval told the operator whom to pay: a payment may already be on its way, so a
      // second approval could pay the week twice (decision 019).
      throw refused(
        `${week.id} is already approved (${approved.player_name}, run ${approved.run_id}, wallet ${approved.wallet_address}, ${utc(approved.created_at)} UTC): record its payment (prize:paid) or withdraw the approval first`,
      );
    }
    const entry = await weekEntry(trx, runId, week.start);
    if (!entry) throw refused(`run ${runId} has no leaderboard entry in ${week.id}`);
    const disqualified = await trx
      .selectFrom('run_disqualifications')
      .select('reason')
      .where('run_id', '=', runId)
      .executeTakeFirst();
    if (disqualified) {
      throw refused(`run ${runId} is disqualified (${disqualified.reason})`, 'RUN_DISQUALIFIED');
    }
    if (entry.user_id === null) {
      throw refused(
        `run ${runId} is a visitor's (${entry.player_name}): the prize goes to members with a linked wallet`,
      );
    }
    if (operator.id !== null && operator.id === entry.user_id) {
      throw new HttpError(403, 'You cannot approve your own run.', 'RANK_PROTECTED');
    }
    if (await activeSuspension(trx, entry.user_id, now)) {
      throw refused(`${entry.player_name} is suspended`);
    }
    const wallet = await lockWallet(trx, entry.user_id);
    if (!wallet) throw refused(`${entry.player_name} has not linked a wallet`);
    const verdict = verifyStanding(entry, run);
    if (!verdict.ok) throw refused(`run ${runId} does not replay (${verdict.reason})`);
    if (operator.id !== null) {
      const watch = await trx
        .selectFrom('replay_watches')
        .select('id')
        .where('run_id', '=', runId)
        .where('operator_id', '=', operator.id)
        .executeTakeFirst();
      if (!watch) {
        throw new HttpError(
          409,
          'Watch this run’s replay to its end before approving it.',
          'REPLAY_NOT_WATCHED',
        );
      }
    }
    const reviewed = events.findLast((e) => e.step === 'reviewed' && e.run_id === runId);
    if (!reviewed) {
      throw refused(
        `run ${runId} has not been through prize:review (or a watched replay in the console) for ${week.id}; review it and watch its replay first`,
      );
    }
    const changed = wallet.address !== reviewed.wallet_address;
    if (changed && confirmWallet !== wallet.address) {
      throw refused(
        `${entry.player_name}'s wallet is now ${wallet.address}, not ${reviewed.wallet_address} as the review showed at ${utc(reviewed.created_at)} UTC. A taken-over account changes wallets too: check with the member that the new one is theirs, then confirm ${wallet.address}`,
      );
    }
    await appendPrizeEvent(trx, {
      week_id: week.id,
      step: 'approved',
      ...runOf(entry),
      wallet_address: wallet.address,
      prize: site.weeklyChallenge.prize,
      created_at: now,
    });
    await recordDecision(
      trx,
      operator,
      {
        kind: 'prize-approve',
        targetType: 'run',
        targetId: runId,
        targetLabel: entry.player_name,
        reason: `weekly prize ${week.id}`,
        details: { week: week.id, wallet: wallet.address, score: entry.score },
      },
      now,
    );
    return {
      week,
      entry,
      wallet: wallet.address,
      walletBefore: changed ? reviewed.wallet_address : null,
    };
  });
  const [first] = await weekStandings(db, week.start, 1);
  return { ...approval, passedOver: first && first.run_id !== runId ? first : undefined };
}

/** Strikes out the week's approval inside `trx`: refused once paid or while a payment may land. */
async function withdrawIn(
  trx: Transaction<Database>,
  operator: RankedOperator,
  weekId: string,
  events: PrizeEventRow[],
  reason: string,
  now: number,
): Promise<PrizeEventRow> {
  const approval = currentApproval(events);
  if (!approval) {
    throw new HttpError(409, `${weekId} has no approval to withdraw.`, 'PRIZE_NOT_APPROVED');
  }
  if (paidStep(events)) {
    throw new HttpError(
      409,
      `${weekId} is paid to ${approval.player_name}: a paid prize cannot be withdrawn.`,
      'PRIZE_ALREADY_PAID',
    );
  }
  if (paymentInFlight(events)) {
    throw new HttpError(
      409,
      `A payment for ${weekId} is prepared and may still land: wait until it is recorded or expires.`,
      'PRIZE_PAYMENT_PENDING',
    );
  }
  await appendWithdrawal(trx, {
    week_id: weekId,
    approval_id: approval.id,
    reason,
    operator_id: operator.id,
    operator_name: operator.name,
    created_at: now,
  });
  await recordDecision(
    trx,
    operator,
    {
      kind: 'prize-withdraw',
      targetType: 'run',
      targetId: approval.run_id ?? '',
      targetLabel: approval.player_name,
      reason,
      details: { week: weekId, wallet: approval.wallet_address, approval: approval.id },
    },
    now,
  );
  return approval;
}

/** Withdraws the week's approval with a reason; the week goes back to review. */
export async function withdrawApproval(
  db: Kysely<Database>,
  operator: RankedOperator,
  week: IsoWeek,
  reason: string,
  now: number,
): Promise<PrizeEventRow> {
  return db
    .transaction()
    .execute(async (trx) =>
      withdrawIn(trx, operator, week.id, await weekEvents(trx, week.id), reason, now),
    );
}

/**
 * Disqualifies a run with a public reason: it leaves the weekly board and the review. A run its
 * week was paid to cannot be disqualified (409 with why); an approved run's approval is withdrawn
 * in the same transaction (refused while its payment may still land).
 */
export async function disqualifyRun(
  db: Kysely<Database>,
  operator: RankedOperator,
  runId: string,
  reason: string,
  now: number,
): Promise<{ withdrew: boolean }> {
  const result = await db.transaction().execute(async (trx) => {
    const entry = await trx
      .selectFrom('game_scores')
      .select(['id', 'run_id', 'user_id', 'player_name', 'week_start'])
      .where('run_id', '=', runId)
      .executeTakeFirst();
    if (!entry) throw notFound('No leaderboard entry for this run.');
    if (entry.user_id !== null) await refuseUnlessOutranksMember(trx, operator, entry.user_id);
    const done = await trx
      .selectFrom('run_disqualifications')
      .select('run_id')
      .where('run_id', '=', runId)
      .executeTakeFirst();
    if (done) throw refused('This run is already disqualified.', 'RUN_DISQUALIFIED');
    const weekId = isoWeekId(entry.week_start);
    const events = await weekEvents(trx, weekId);
    const paid = paidStep(events);
    if (paid?.run_id === runId) {
      throw new HttpError(
        409,
        `${weekId} was paid to this run (transaction ${paid.tx_signature ?? paid.tx_url}): a paid run cannot be disqualified.`,
        'PRIZE_ALREADY_PAID',
      );
    }
    const approved = currentApproval(events)?.run_id === runId;
    if (approved) {
      await withdrawIn(trx, operator, weekId, events, `disqualified: ${reason}`, now);
    }
    await trx
      .insertInto('run_disqualifications')
      .values({ run_id: runId, reason, operator_id: operator.id, created_at: now })
      .execute();
    await recordDecision(
      trx,
      operator,
      {
        kind: 'run-disqualify',
        targetType: 'run',
        targetId: runId,
        targetLabel: entry.player_name,
        reason,
        details: { entryId: entry.id, withdrewApproval: approved },
      },
      now,
    );
    return { weekStart: entry.week_start, withdrew: approved };
  });
  // The run leaves the public board: open pages refetch it, and every node drops its cached one.
  recordLiveEvent(db, {
    type: 'leaderboard',
    data: { week: new Date(result.weekStart).toISOString() },
  });
  return { withdrew: result.withdrew };
}
