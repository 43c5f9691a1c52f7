import { randomBytes } from 'node:crypto';
import type { GameRunResponse, ProgressBody, ProgressResponse } from '#shared/api/game.ts';
import { MAX_STEPS, STEP_MS } from '#shared/game/constants.ts';
import {
  checkJumpCount,
  checkReportTiming,
  extendsReported,
  INCONSISTENT_LOG,
  MAX_REPORT_GAP_MS,
  newJumps,
  ROUND_START_DELAY_MS,
  UNRANKED,
  UNREPORTED_TAIL_STEPS,
  AHEAD_TOLERANCE_MS,
} from '#shared/game/pacing.ts';
import { RunStatisticsRecorder } from '#shared/game/run-statistics.ts';
import { simulate } from '#shared/game/simulate.ts';
import { MINUTE_MS } from '#shared/time.ts';
import type { AppDeps, SessionUser } from '../deps.ts';
import { isErrorCode, type ErrorCode } from '#shared/api/error-codes.ts';
import { HttpError } from '../http-error.ts';
import { enforceRateLimit, type RateLimiter } from '../security/rate-limit.ts';
import {
  countOpenRuns,
  findRun,
  findRunProgress,
  insertRun,
  recordProgress,
  recordRefusal,
  recordVerification,
  runJumps,
  type GameRunRow,
  type RunOutcome,
} from './repository.ts';

// A game run from issue to verdict: handed out, paced by its progress reports, and replayed
// once when its score or coins are sent (docs/decisions/012 and 018). The throttles of every
// game route are here too, counted per member or per network.

/** The longest round (MAX_STEPS) plus time to send it; older runs are refused. */
export const RUN_TTL_MS = MAX_STEPS * STEP_MS + 15 * MINUTE_MS;

/**
 * Rounds one network may have running at once (a run counts until it is verified, refused or
 * silent past the longest gap between reports): a household or an office behind one IPv4
 * address, while one caller cannot keep thousands of runs reporting (docs/decisions/018).
 */
export const OPEN_RUNS_PER_NETWORK = 10;

/**
 * The game's throttles, per minute: the prefix of what each counts (followed by the caller) and
 * what the caller was doing too often.
 */
const GAME_LIMITS = {
  runs: { key: 'game-runs', perMinute: 40, tooMany: 'games started' },
  /**
   * Per network, counted before the body is read (routes.ts): the client sends one report a
   * second, one at a time, so each open run sends at most 60 a minute; a fifth more for the
   * final reports at game over.
   */
  progress: {
    key: 'game-progress',
    perMinute: OPEN_RUNS_PER_NETWORK * 72,
    tooMany: 'progress reports',
  },
  scores: { key: 'game-scores', perMinute: 60, tooMany: 'scores submitted' },
  /** Per member: a run's replay costs milliseconds of CPU, and a refused one may come again. */
  coins: { key: 'coins-add', perMinute: 60, tooMany: 'coin saves' },
} as const;

/**
 * Reports for runs that do not exist, per network, counted by each node in memory (`misses` of
 * admitReport): an honest client misses only when its run was pruned, a script making up run
 * ids is stopped after a minute's allowance, and neither writes anything.
 */
const UNKNOWN_RUN_REPORTS = { limit: 60, windowMs: MINUTE_MS };

export function rejectRun(message: string, code: ErrorCode): HttpError {
  return new HttpError(422, message, code);
}

/** Counts one hit of `throttle` for `who` (see caller), or throws its 429. */
export async function limit(deps: AppDeps, throttle: keyof typeof GAME_LIMITS, who: string) {
  const { key, perMinute, tooMany } = GAME_LIMITS[throttle];
  await enforceRateLimit(
    deps.rateLimiter,
    `${key}:${who}`,
    { limit: perMinute, windowMs: MINUTE_MS },
    `Too many ${tooMany}. Please wait a moment and try again.`,
  );
}

/** Members are counted per account, visitors per network (`clientNetwork(request)`). */
export function caller(user: SessionUser | null, network: string): string {
  return user ? `user:${user.id}` : `net:${network}`;
}

export async function issueRun(
  deps: AppDeps,
  user: SessionUser | null,
  network: string,
): Promise<GameRunResponse> {
  await limit(deps, 'runs', caller(user, network));
  const issuedAt = deps.clock.now();
  // Each open run reports every second: their number per network bounds the writes it causes.
  if ((await countOpenRuns(deps.db, network, issuedAt)) >= OPEN_RUNS_PER_NETWORK) {
    throw new HttpError(
      429,
      'Too many games are running from your network at once. Finish one, then start again.',
      'RUNS_OPEN',
      { 'retry-after': String(MAX_REPORT_GAP_MS / 1000) },
    );
  }
  const bytes = randomBytes(20);
  const runId = bytes.subarray(0, 16).toString('base64url');
  const seed = bytes.readUInt32BE(16);
  await insertRun(deps.db, { id: runId, seed, userId: user?.id ?? null, issuedAt, network });
  return { runId, seed, startsAt: issuedAt + ROUND_START_DELAY_MS };
}

/** The run the request names, still open to this caller. */
export async function openRun(
  deps: AppDeps,
  runId: string,
  user: SessionUser | null,
): Promise<GameRunRow> {
  const run = await findRun(deps.db, runId);
  if (!run) throw rejectRun('This game run is unknown.', 'RUN_UNKNOWN');
  assertOwner(run, user);
  // Replayed or not: a run kept back could otherwise be entered in a later week's contest.
  if (deps.clock.now() - run.issued_at > RUN_TTL_MS) {
    throw rejectRun('This game run has expired.', 'RUN_EXPIRED');
  }
  throwIfRefused(run);
  return run;
}

/**
 * A member's run goes on only with that member's session: its id alone (a bearer secret that
 * may leak, issue 30 finding 8) must not let anyone else end it or score it. A visitor's run
 * has no owner to check.
 */
function assertOwner(run: { user_id: number | null }, user: SessionUser | null): void {
  if (run.user_id === null || run.user_id === user?.id) return;
  throw new HttpError(
    403,
    user === null
      ? 'This game run belongs to a member: log in as them to go on with it.'
      : 'This game run belongs to another player.',
    'RUN_NOT_YOURS',
  );
}

/** A refused run answers with its stored refusal: no replay, however often it is sent. */
function throwIfRefused(run: {
  refused_at: number | null;
  refusal_code: string | null;
  refusal_message: string | null;
}): void {
  if (run.refused_at !== null) {
    // The stored code is one this module wrote (refuse below): an ErrorCode, or an unknown one
    // from an older release, answered as a plain refusal.
    const code =
      run.refusal_code !== null && isErrorCode(run.refusal_code) ? run.refusal_code : 'RUN_REFUSED';
    throw rejectRun(run.refusal_message ?? `${UNRANKED}.`, code);
  }
}

/** Ends the run as unranked (once; the first refusal stands) and answers with the refusal. */
async function refuse(
  deps: AppDeps,
  runId: string,
  refusal: { code: ErrorCode; message: string },
): Promise<never> {
  if (!(await recordRefusal(deps.db, runId, refusal, deps.clock.now()))) {
    const fresh = await findRun(deps.db, runId);
    if (fresh) throwIfRefused(fresh);
  }
  throw rejectRun(refusal.message, refusal.code);
}

/** The run a progress report names, as the report needs it. */
export type ReportedRun = NonNullable<Awaited<ReturnType<typeof findRunProgress>>>;

/**
 * A progress report's first step, before its body is read (routes.ts): the run is looked up
 * first, so an unknown id costs one read by primary key and writes nothing, not even a
 * limiter row (such misses are counted in this node's memory, `misses`); then the owner is
 * checked and the caller's network counted.
 */
export async function admitReport(
  deps: AppDeps,
  misses: RateLimiter,
  user: SessionUser | null,
  runId: string,
  network: string,
): Promise<ReportedRun> {
  const run = await findRunProgress(deps.db, runId);
  if (!run) {
    await enforceRateLimit(
      misses,
      `unknown-run:net:${network}`,
      UNKNOWN_RUN_REPORTS,
      'Too many progress reports for unknown game runs. Please wait a moment and try again.',
    );
    throw rejectRun('This game run is unknown.', 'RUN_UNKNOWN');
  }
  assertOwner(run, user);
  await limit(deps, 'progress', `net:${network}`);
  return run;
}

/**
 * A progress report of a running round (admitted by admitReport). The server compares the step
 * reached with its own clock since the round began (issue time plus the countdown) and appends
 * the reported jumps, to which the final jump log must add only what came after. See
 * docs/decisions/012 and 018.
 */
export async function reportProgress(
  deps: AppDeps,
  run: ReportedRun,
  body: ProgressBody,
): Promise<ProgressResponse> {
  throwIfRefused(run);
  if (run.verified_at !== null) {
    throw rejectRun('This game run is over: its score was already checked.', 'RUN_USED');
  }
  // A report that repeats or trails what the server holds (a resend after a lost answer) changes
  // nothing: the client reports from the step answered.
  if (body.step <= run.progress_step) return { step: run.progress_step };

  const now = deps.clock.now();
  const timing = checkReportTiming({
    startedAt: run.issued_at + ROUND_START_DELAY_MS,
    lastReportAt: run.progress_at,
    now,
    step: body.step,
  });
  if (timing) return refuse(deps, run.id, timing);
  const added = newJumps(body.jumps, run.progress_step, body.step);
  if (!Array.isArray(added)) return refuse(deps, run.id, added);
  const tooMany = checkJumpCount(run.jump_count, added.length, body.step);
  if (tooMany) return refuse(deps, run.id, tooMany);

  const recorded = await recordProgress(
    deps.db,
    run.id,
    { step: run.progress_step, at: run.progress_at },
    { step: body.step, jumps: added, at: now },
  );
  if (!recorded) {
    throw new HttpError(
      409,
      'Another report of this run arrived at the same time. Send the next one.',
      'RUN_BUSY',
    );
  }
  return { step: body.step };
}

/** The outcome of a verified run, with its stored jump log; null before verification. */
export async function storedOutcome(deps: AppDeps, run: GameRunRow): Promise<RunOutcome | null> {
  if (
    run.verified_at === null ||
    run.steps === null ||
    run.score === null ||
    run.coins === null ||
    run.obstacles_passed === null
  ) {
    return null;
  }
  return {
    inputs: await runJumps(deps.db, run.id),
    steps: run.steps,
    score: run.score,
    coins: run.coins,
    obstaclesPassed: run.obstacles_passed,
  };
}

function sameJumps(a: readonly number[], b: readonly number[]): boolean {
  return a.length === b.length && a.every((step, i) => step === b[i]);
}

const mismatch = () =>
  rejectRun('These jumps differ from the ones already verified for this run.', 'RUN_MISMATCH');

/**
 * The run's one verification. A run replayed before answers with that outcome: then only the
 * same jump log is accepted. Otherwise the jump log must extend the progress reported while the
 * round ran, last no longer than that progress allows, and replay; the outcome is stored at
 * once, whatever it is, so a run is replayed at most once (issue 19, finding 2).
 */
export async function verifyOnce(
  deps: AppDeps,
  run: GameRunRow,
  inputs: readonly number[],
): Promise<RunOutcome> {
  const stored = await storedOutcome(deps, run);
  if (stored) {
    if (!sameJumps(stored.inputs, inputs)) throw mismatch();
    return stored;
  }
  const reported = await runJumps(deps.db, run.id);
  if (!extendsReported(inputs, reported, run.progress_step)) {
    return refuse(deps, run.id, INCONSISTENT_LOG);
  }
  // The reports were held to the jump rate; so is the tail the final log adds.
  const tooMany = checkJumpCount(0, inputs.length, (inputs.at(-1) ?? -1) + 1);
  if (tooMany) return refuse(deps, run.id, tooMany);
  // Only the reported progress, plus the last moments a lost final report may leave out, and
  // never more than the time since the round began.
  const sinceStartMs = deps.clock.now() - run.issued_at - ROUND_START_DELAY_MS;
  const maxSteps = Math.max(
    0,
    Math.min(
      MAX_STEPS,
      run.progress_step + UNREPORTED_TAIL_STEPS,
      Math.floor((sinceStartMs + AHEAD_TOLERANCE_MS) / STEP_MS),
    ),
  );
  // The one replay of the run: its verdict, and the reviewer's figures (docs/decisions/012).
  const statistics = new RunStatisticsRecorder();
  const result = simulate(run.seed, inputs, { maxSteps }, statistics);
  if (!result.ok) {
    return refuse(
      deps,
      run.id,
      result.reason === 'too-long' && maxSteps < MAX_STEPS
        ? {
            code: 'RUN_NOT_PACED',
            message: `${UNRANKED}: it goes on past the progress reported while it was played.`,
          }
        : { code: 'RUN_INVALID', message: `The run could not be replayed: ${result.message}` },
    );
  }
  const outcome: RunOutcome = {
    inputs,
    steps: result.steps,
    score: result.score,
    coins: result.coins,
    obstaclesPassed: result.obstaclesPassed,
  };
  if (await recordVerification(deps.db, run.id, outcome, statistics.result(), deps.clock.now())) {
    return outcome;
  }
  // Another request replayed or refused this run between our read and now: theirs stands.
  const fresh = await findRun(deps.db, run.id);
  if (fresh) throwIfRefused(fresh);
  const settled = fresh && (await storedOutcome(deps, fresh));
  if (!settled || !sameJumps(settled.inputs, outcome.inputs)) throw mismatch();
  return settled;
}
