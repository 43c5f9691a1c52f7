import { randomBytes } from 'node:crypto';
import type {
  AddCoinsBody,
  AddCoinsResponse,
  GameRunResponse,
  GiveawayWinner,
  LeaderboardEntry,
  SubmitScoreBody,
} from '#shared/api/game.ts';
import {
  MAX_STEPS,
  POWER_UPS_COLLECTED,
  STEP_MS,
  STEPS_PER_SECOND,
} from '#shared/game/constants.ts';
import { levelForScore } from '#shared/game/engine.ts';
import { simulate } from '#shared/game/simulate.ts';
import { weekStartUtc } from '#shared/time.ts';
import type { AppDeps, SessionUser } from '../deps.ts';
import { HttpError, unauthorized } from '../http-error.ts';
import { enforceRateLimit } from '../security/rate-limit.ts';
import { applyCredit } from '../shop/ledger.ts';
import {
  findRun,
  findUsername,
  hasOverlappingCreditedRun,
  insertRun,
  insertScore,
  isMemberName,
  markCoinsCredited,
  markScoreSubmitted,
  recentWinners,
  recordVerification,
  weekStandings,
  type GameRunRow,
  type RunOutcome,
} from './repository.ts';

/**
 * A round can be played no faster than real time, so the server allows at most the steps that
 * fit between handing out the run and receiving it, plus this much for clocks and the network.
 */
export const REAL_TIME_GRACE_MS = 1000;
/** The longest round (MAX_STEPS) plus time to send it; older runs are refused. */
export const RUN_TTL_MS = MAX_STEPS * STEP_MS + 15 * 60 * 1000;

const RUNS_PER_MINUTE_PER_IP = 40;
/** Score submissions per caller, and coin saves per member. */
const SUBMISSIONS_PER_MINUTE = 60;
const MINUTE_MS = 60 * 1000;

export function rejectRun(message: string, code: string): HttpError {
  return new HttpError(422, message, code);
}

function limit(deps: AppDeps, key: string, max: number, message: string): Promise<string> {
  return enforceRateLimit(deps.rateLimiter, key, { limit: max, windowMs: MINUTE_MS }, message);
}

/** Members are counted per account, visitors per address. */
function caller(user: SessionUser | null, ip: string): string {
  return user ? `user:${user.id}` : `ip:${ip}`;
}

export async function issueRun(
  deps: AppDeps,
  user: SessionUser | null,
  ip: string,
): Promise<GameRunResponse> {
  await limit(
    deps,
    `game-runs:${caller(user, ip)}`,
    RUNS_PER_MINUTE_PER_IP,
    'Too many games started. Please wait a moment and try again.',
  );
  const bytes = randomBytes(20);
  const runId = bytes.subarray(0, 16).toString('base64url');
  const seed = bytes.readUInt32BE(16);
  await insertRun(deps.db, {
    id: runId,
    seed,
    userId: user?.id ?? null,
    issuedAt: deps.clock.now(),
  });
  return { runId, seed };
}

/** The run the request names, still open to this caller. */
async function openRun(
  deps: AppDeps,
  runId: string,
  user: SessionUser | null,
): Promise<GameRunRow> {
  const run = await findRun(deps.db, runId);
  if (!run) throw rejectRun('This game run is unknown.', 'RUN_UNKNOWN');
  if (run.user_id !== null && user !== null && run.user_id !== user.id) {
    throw rejectRun('This game run belongs to another player.', 'RUN_NOT_YOURS');
  }
  // Replayed or not: a run kept back could otherwise be entered in a later week's contest.
  if (deps.clock.now() - run.issued_at > RUN_TTL_MS) {
    throw rejectRun('This game run has expired.', 'RUN_EXPIRED');
  }
  return run;
}

function storedOutcome(run: GameRunRow): RunOutcome | null {
  if (
    run.verified_at === null ||
    run.inputs === null ||
    run.steps === null ||
    run.score === null ||
    run.coins === null ||
    run.obstacles_passed === null
  ) {
    return null;
  }
  return {
    inputs: run.inputs,
    steps: run.steps,
    score: run.score,
    coins: run.coins,
    obstaclesPassed: run.obstacles_passed,
  };
}

/**
 * Replays the jump log with the shared engine. A run replayed before (by the other route) keeps
 * its first outcome, and then only the same jump log is accepted.
 */
function replay(deps: AppDeps, run: GameRunRow, inputs: readonly number[]): RunOutcome {
  const json = JSON.stringify(inputs);
  const stored = storedOutcome(run);
  if (stored) {
    if (stored.inputs !== json) {
      throw rejectRun(
        'These jumps differ from the ones already verified for this run.',
        'RUN_MISMATCH',
      );
    }
    return stored;
  }
  const elapsedMs = deps.clock.now() - run.issued_at + REAL_TIME_GRACE_MS;
  const maxSteps = Math.max(0, Math.min(MAX_STEPS, Math.floor(elapsedMs / STEP_MS)));
  const result = simulate(run.seed, inputs, { maxSteps });
  if (!result.ok) {
    if (result.reason === 'too-long' && maxSteps < MAX_STEPS) {
      throw rejectRun(
        'This run is longer than the time since it started: it cannot have been played in real time.',
        'RUN_TOO_FAST',
      );
    }
    throw rejectRun(`The run could not be replayed: ${result.message}`, 'RUN_INVALID');
  }
  return {
    inputs: json,
    steps: result.steps,
    score: result.score,
    coins: result.coins,
    obstaclesPassed: result.obstaclesPassed,
  };
}

/** Inside a transaction: the outcome every later request of this run must agree with. */
async function settleOutcome(
  deps: AppDeps,
  db: Parameters<typeof recordVerification>[0],
  run: GameRunRow,
  outcome: RunOutcome,
): Promise<RunOutcome> {
  if (run.verified_at !== null) return outcome;
  if (await recordVerification(db, run.id, outcome, deps.clock.now())) return outcome;
  // Another request replayed this run between our read and now: theirs stands.
  const fresh = await findRun(db, run.id);
  const stored = fresh && storedOutcome(fresh);
  if (!stored || stored.inputs !== outcome.inputs) {
    throw rejectRun(
      'These jumps differ from the ones already verified for this run.',
      'RUN_MISMATCH',
    );
  }
  return stored;
}

function toEntry(row: {
  id: number;
  player_name: string;
  score: number;
  level: number;
  tasks_completed: number;
  created_at: number;
}): LeaderboardEntry {
  return {
    id: row.id,
    playerName: row.player_name,
    score: row.score,
    level: row.level,
    tasksCompleted: row.tasks_completed,
    createdAt: new Date(row.created_at).toISOString(),
  };
}

export async function submitScore(
  deps: AppDeps,
  user: SessionUser | null,
  body: SubmitScoreBody,
  ip: string,
): Promise<LeaderboardEntry> {
  await limit(
    deps,
    `game-scores:${caller(user, ip)}`,
    SUBMISSIONS_PER_MINUTE,
    'Too many scores submitted. Please wait a moment and try again.',
  );
  const run = await openRun(deps, body.runId, user);
  if (run.score_submitted_at !== null) {
    throw rejectRun('This game run has already been submitted.', 'RUN_USED');
  }
  const outcome = replay(deps, run, body.inputs);
  const gameTime = Math.floor(outcome.steps / STEPS_PER_SECOND);
  const claimed = [
    body.score === outcome.score,
    body.level === levelForScore(outcome.score),
    body.tasksCompleted === outcome.score,
    body.powerUpsCollected === POWER_UPS_COLLECTED,
    body.gameTime === gameTime,
  ];
  if (claimed.includes(false)) {
    throw rejectRun(
      `The submitted figures do not match the replay of this run (score ${outcome.score}, ${gameTime} s).`,
      'SCORE_MISMATCH',
    );
  }

  // The entry belongs to whoever the run was issued to, else to the member submitting it.
  const ownerId = run.user_id ?? user?.id ?? null;
  let playerName = body.playerName;
  if (ownerId !== null) {
    const username = ownerId === user?.id ? user.username : await findUsername(deps.db, ownerId);
    if (username === undefined)
      throw rejectRun('This game run belongs to a closed account.', 'RUN_NOT_YOURS');
    playerName = username;
  } else if (await isMemberName(deps.db, playerName)) {
    // The prize is paid to a name: a visitor may not play under a member's.
    throw rejectRun(
      `The name "${playerName}" belongs to a registered member. Log in as them or choose another name.`,
      'NAME_TAKEN',
    );
  }

  const now = deps.clock.now();
  const id = await deps.db.transaction().execute(async (trx) => {
    // Equal jump logs replay to equal figures, so the checks above hold for the settled outcome.
    const settled = await settleOutcome(deps, trx, run, outcome);
    if (!(await markScoreSubmitted(trx, run.id, now))) {
      throw rejectRun('This game run has already been submitted.', 'RUN_USED');
    }
    return insertScore(trx, {
      runId: run.id,
      userId: ownerId,
      playerKey: ownerId !== null ? `u:${ownerId}` : `n:${playerName.toLowerCase()}`,
      playerName,
      score: settled.score,
      level: levelForScore(settled.score),
      tasksCompleted: settled.score,
      powerUpsCollected: POWER_UPS_COLLECTED,
      gameTime,
      weekStart: weekStartUtc(now),
      createdAt: now,
    });
  });
  return toEntry({
    id,
    player_name: playerName,
    score: outcome.score,
    level: levelForScore(outcome.score),
    tasks_completed: outcome.score,
    created_at: now,
  });
}

export const COINS_REQUIRE_MEMBER = 'Please log in to save your coins.';

export async function addCoins(
  deps: AppDeps,
  user: SessionUser | null,
  body: AddCoinsBody,
): Promise<AddCoinsResponse> {
  if (!user) throw unauthorized(COINS_REQUIRE_MEMBER);
  // A run's replay costs milliseconds of CPU, and a refused one may be sent again and again.
  await limit(
    deps,
    `coins-add:user:${user.id}`,
    SUBMISSIONS_PER_MINUTE,
    'Too many coin saves. Please wait a moment and try again.',
  );
  const run = await openRun(deps, body.runId, user);
  if (run.user_id !== user.id) {
    throw rejectRun(
      'Coins can only be saved for a game you started while logged in.',
      'RUN_NOT_YOURS',
    );
  }
  if (run.coins_credited_at !== null) {
    throw rejectRun('The coins of this game have already been saved.', 'COINS_ALREADY_SAVED');
  }
  let outcome = storedOutcome(run);
  if (!outcome) {
    if (!body.inputs) {
      throw rejectRun(
        'Send the jumps of this run so its coins can be verified.',
        'RUN_NOT_VERIFIED',
      );
    }
    outcome = replay(deps, run, body.inputs);
  } else if (body.inputs && JSON.stringify(body.inputs) !== outcome.inputs) {
    throw rejectRun(
      'These jumps differ from the ones already verified for this run.',
      'RUN_MISMATCH',
    );
  }
  if (body.amount > outcome.coins) {
    throw rejectRun(
      `This game collected ${outcome.coins} coin${outcome.coins === 1 ? '' : 's'}, not ${body.amount}.`,
      'COINS_MISMATCH',
    );
  }

  const verified = outcome;
  const balance = await deps.db.transaction().execute(async (trx) => {
    const settled = await settleOutcome(deps, trx, run, verified);
    if (!(await markCoinsCredited(trx, run.id, body.amount, deps.clock.now()))) {
      throw settled.coins < body.amount
        ? rejectRun(
            `This game collected ${settled.coins} coins, not ${body.amount}.`,
            'COINS_MISMATCH',
          )
        : rejectRun('The coins of this game have already been saved.', 'COINS_ALREADY_SAVED');
    }
    // The ledger's unique run id is a second lock on "once per run".
    const credit = await applyCredit(trx, {
      userId: user.id,
      amount: body.amount,
      reason: 'game-run',
      runId: run.id,
      now: deps.clock.now(),
    });
    // Coins pay for time played, and one player plays one game at a time: otherwise parallel
    // runs on one account earn many times what any player could. Checked after the balance's
    // row lock, so of two overlapping runs saved at once the second sees the first.
    const overlaps = await hasOverlappingCreditedRun(trx, user.id, {
      id: run.id,
      issuedAt: run.issued_at,
      steps: verified.steps,
    });
    if (overlaps) {
      throw rejectRun(
        'Coins are saved for one game at a time, and this game overlaps one already saved.',
        'RUN_OVERLAPS',
      );
    }
    return credit.balance;
  });
  return { coinsAdded: body.amount, balance };
}

export async function leaderboard(deps: AppDeps, limit: number): Promise<LeaderboardEntry[]> {
  const rows = await weekStandings(deps.db, weekStartUtc(deps.clock.now()), limit);
  return rows.map(toEntry);
}

export async function giveawayWinners(deps: AppDeps, limit: number): Promise<GiveawayWinner[]> {
  const rows = await recentWinners(deps.db, limit);
  return rows.map((row) => ({
    id: row.id,
    week: row.week_id,
    playerName: row.player_name,
    prize: row.prize,
    txUrl: row.tx_url,
    paidAt: new Date(row.paid_at).toISOString(),
  }));
}
