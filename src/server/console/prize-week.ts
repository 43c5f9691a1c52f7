import type { Kysely } from 'kysely';
import { machineSigns } from '#shared/game/run-statistics.ts';
import { isoWeekId, WEEK_MS } from '#shared/time.ts';
import type { SiteConfig } from '#shared/site.ts';
import type { AdminCommand, AdminContext } from '../cli/command.ts';
import { weekOption } from '../cli/command.ts';
import { verifyStanding } from '../game/admin-commands.ts';
import { findRuns, runStatisticsByRunId, weekStandings } from '../game/repository.ts';
import type { AppDeps } from '../deps.ts';
import type { Database } from '../db/database.ts';
import { HttpError, notFound } from '../http-error.ts';
import { recordLiveEvent } from '../live/record.ts';
import { prizeApproveCommand, prizeReviewCommand } from '../prize/admin-commands.ts';
import { weekEvents } from '../prize/repository.ts';
import { findWallets } from '../wallet/repository.ts';
import { recordDecision, type Operator } from '../db/operator-log.ts';

/**
 * The console's Prize week (issue 32): the same rule as the CLI's prize:review and prize:approve
 * (one rule, two faces). The console runs those commands' own code with its printed lines
 * caught, so a refusal reads the same in both; it adds the replay-watch requirement.
 */

const REVIEW_LIMIT = 10;

/** Runs a CLI command as the console: its exit code and printed lines. */
async function runCommand(
  deps: AppDeps,
  site: SiteConfig,
  command: AdminCommand,
  args: string[],
): Promise<{ code: number; lines: string[] }> {
  const lines: string[] = [];
  const ctx: AdminContext = {
    config: deps.config,
    db: deps.db,
    get objectStore() {
      return deps.objectStore!;
    },
    site,
    clock: deps.clock,
    print: (line) => lines.push(line),
  };
  const code = await command.run(ctx, args);
  return { code, lines };
}

/** The closed week (last week), as prize:review defaults to. */
export function closedWeek(now: number) {
  const id = isoWeekId(now - WEEK_MS);
  return weekOption(id, id);
}

async function watchedRuns(db: Kysely<Database>, operatorId: number): Promise<Set<string>> {
  const rows = await db
    .selectFrom('replay_watches')
    .select('run_id')
    .where('operator_id', '=', operatorId)
    .execute();
  return new Set(rows.map((r) => r.run_id));
}

/** The closed week's best runs, with prize:review's verdicts; records the review as the CLI does. */
export async function prizeWeek(deps: AppDeps, site: SiteConfig, operator: Operator) {
  const now = deps.clock.now();
  const week = closedWeek(now);
  // The review step is what the CLI records when it shows the runs; approval needs it.
  await runCommand(deps, site, prizeReviewCommand, ['--week', week.id]);
  const rows = await weekStandings(deps.db, week.start, REVIEW_LIMIT);
  const runIds = rows.map((r) => r.run_id);
  const runs = new Map((await findRuns(deps.db, runIds)).map((r) => [r.id, r]));
  const statistics = await runStatisticsByRunId(deps.db, runIds);
  const wallets = new Map(
    (
      await findWallets(
        deps.db,
        rows.flatMap((r) => (r.user_id === null ? [] : [r.user_id])),
      )
    ).map((w) => [w.user_id, w.address]),
  );
  const watched = await watchedRuns(deps.db, operator.id!);
  const events = await weekEvents(deps.db, week.id);
  const approval = events.findLast((e) => e.step === 'approved');
  return {
    week: week.id,
    open: now < week.end,
    paid: events.some((e) => e.step === 'paid'),
    approved: approval
      ? {
          runId: approval.run_id ?? '',
          playerName: approval.player_name,
          wallet: approval.wallet_address,
        }
      : null,
    entries: rows.map((row, index) => {
      const wallet = row.user_id === null ? undefined : wallets.get(row.user_id);
      const verdict = verifyStanding(row, runs.get(row.run_id));
      const why =
        row.user_id === null
          ? 'visitor (no account)'
          : wallet === undefined
            ? 'member without a linked wallet'
            : verdict.ok
              ? null
              : `replay mismatch (${verdict.reason})`;
      const stats = statistics.get(row.run_id);
      return {
        rank: index + 1,
        entryId: row.id,
        runId: row.run_id,
        playerName: row.player_name,
        member: row.user_id !== null,
        score: row.score,
        level: row.level,
        tasks: row.tasks_completed,
        powerUps: row.power_ups_collected,
        gameTime: row.game_time,
        payable: why === null,
        why,
        wallet: wallet ?? null,
        statistics: stats ? ({ ...stats } as unknown as Record<string, number>) : null,
        signs: stats ? machineSigns(stats).map((s) => s.label) : [],
        watched: watched.has(row.run_id),
      };
    }),
  };
}

async function runEntry(db: Kysely<Database>, runId: string) {
  return db
    .selectFrom('game_scores')
    .select(['id', 'run_id', 'player_name', 'week_start'])
    .where('run_id', '=', runId)
    .executeTakeFirst();
}

/** Records that the operator watched the run's replay to its end (any speed); logged. */
export async function recordWatch(deps: AppDeps, operator: Operator, runId: string) {
  const entry = await runEntry(deps.db, runId);
  if (!entry) throw notFound('No leaderboard entry for this run.');
  const now = deps.clock.now();
  await deps.db.transaction().execute(async (trx) => {
    await trx
      .insertInto('replay_watches')
      .values({ operator_id: operator.id!, run_id: runId, watched_at: now })
      .execute();
    await recordDecision(
      trx,
      operator,
      {
        kind: 'replay-watched',
        targetType: 'run',
        targetId: runId,
        targetLabel: entry.player_name,
        reason: 'watched the replay to its end',
        details: { entryId: entry.id },
      },
      now,
    );
  });
}

/**
 * Approves the closed week for the run, through prize:approve's own code (its wallet checks,
 * decision 019), once this operator has watched the run's replay to its end.
 */
export async function approveRun(
  deps: AppDeps,
  site: SiteConfig,
  operator: Operator,
  runId: string,
  confirmWallet: string | undefined,
): Promise<string> {
  const watch = await deps.db
    .selectFrom('replay_watches')
    .select('id')
    .where('run_id', '=', runId)
    .where('operator_id', '=', operator.id!)
    .executeTakeFirst();
  if (!watch) {
    throw new HttpError(
      409,
      'Watch this run’s replay to its end before approving it.',
      'REPLAY_NOT_WATCHED',
    );
  }
  const week = closedWeek(deps.clock.now());
  const args = ['--week', week.id, `--run=${runId}`];
  if (confirmWallet) args.push(`--confirm-wallet=${confirmWallet}`);
  const { code, lines } = await runCommand(deps, site, prizeApproveCommand, args);
  if (code !== 0) {
    throw new HttpError(409, lines.join(' ').replace(/\s+/g, ' ').trim(), 'PRIZE_REFUSED');
  }
  const approval = (await weekEvents(deps.db, week.id)).findLast((e) => e.step === 'approved')!;
  await recordDecision(
    deps.db,
    operator,
    {
      kind: 'prize-approve',
      targetType: 'run',
      targetId: runId,
      targetLabel: approval.player_name,
      reason: `weekly prize ${week.id}`,
      details: { week: week.id, wallet: approval.wallet_address, score: approval.score },
    },
    deps.clock.now(),
  );
  return lines.join('\n');
}

/** Disqualifies a run with a public reason: the weekly board and the review leave it out. */
export async function disqualifyRun(
  deps: AppDeps,
  operator: Operator,
  runId: string,
  reason: string,
) {
  const entry = await runEntry(deps.db, runId);
  if (!entry) throw notFound('No leaderboard entry for this run.');
  const now = deps.clock.now();
  await deps.db.transaction().execute(async (trx) => {
    const done = await trx
      .selectFrom('run_disqualifications')
      .select('run_id')
      .where('run_id', '=', runId)
      .executeTakeFirst();
    if (done) throw new HttpError(409, 'This run is already disqualified.', 'RUN_DISQUALIFIED');
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
        details: { entryId: entry.id },
      },
      now,
    );
  });
  // The run leaves the public board: open pages refetch it, and every node drops its cached one.
  recordLiveEvent(deps.db, {
    type: 'leaderboard',
    data: { week: new Date(entry.week_start).toISOString() },
  });
}
