import { MAX_INPUTS, MAX_STEPS, STEP_MS, STEPS_PER_SECOND } from './constants.ts';

// A round is played in real time: while it runs, the client reports the step it has reached and
// the jumps it made since its last acknowledged report, and the server compares each report with
// its own clock (docs/decisions/012-runs-paced-in-real-time.md). These are the shared rules.

/** Spec: countdown 3, 2, 1, GO over three seconds, the round itself about 800 ms later. */
export const COUNTDOWN_STEP_MS = 1000;
const GO_TO_RUNNING_MS = 800;
/**
 * The server's start of a round: its own issue time plus the fixed countdown. The client cannot
 * move it: starting late only puts the round behind, starting early only ahead.
 */
export const ROUND_START_DELAY_MS = 3 * COUNTDOWN_STEP_MS + GO_TO_RUNNING_MS;

/** The client reports at least this often while a round runs. */
export const REPORT_INTERVAL_MS = 1000;
/**
 * How far a report may trail the server's clock. A report is sent at the step reached and read
 * when it arrives, so a report held up by the network for a few seconds (a phone between cells,
 * reports bunched behind a slow one) trails by that delay, plus frames a busy phone dropped.
 * Five seconds covers about four seconds of delay and a second of dropped frames.
 */
export const BEHIND_TOLERANCE_MS = 5000;
/**
 * How far a report may lead the server's clock. Honest play leads by at most half the round
 * trip of the request that issued the run (the server dates the start from its own issue time,
 * the client from the answer's arrival): 1.5 s allows a 3 s round trip.
 */
export const AHEAD_TOLERANCE_MS = 1500;
/**
 * Longest wait between two reports (or from the start to the first). Without it a run could be
 * paused for a minute and then sped up to be on time at its next report.
 */
export const MAX_REPORT_GAP_MS = REPORT_INTERVAL_MS + BEHIND_TOLERANCE_MS;
/**
 * A round may end this many steps after its last accepted report (the final report, sent at
 * game over, may be lost); the rest of a submitted run must have been reported on time.
 */
export const UNREPORTED_TAIL_STEPS = STEPS_PER_SECOND;

/**
 * The fastest jumping a run may report: one jump per this many steps on average (5, the rate
 * MAX_INPUTS allows over a whole run). Staying airborne takes one jump per about 27 steps
 * (2 * -JUMP_VELOCITY / GRAVITY), and a faster rate only climbs into the ceiling, which ends the
 * round: five times the rate of play, and 12 taps a second, more than a thumb keeps up.
 */
const JUMP_RATE_STEPS = MAX_STEPS / MAX_INPUTS;
/** On top of the rate, a second's worth of jumps at that rate: a burst from the start. */
const JUMP_BURST = STEPS_PER_SECOND / JUMP_RATE_STEPS;
/**
 * The most steps one timely report covers: the longest wait between reports, plus the first
 * report's lead and the previous one's lag (docs/decisions/018).
 */
const REPORT_SPAN_STEPS =
  (MAX_REPORT_GAP_MS + AHEAD_TOLERANCE_MS + BEHIND_TOLERANCE_MS) / STEP_MS;
/**
 * Jumps one report may carry: its longest span at the jump rate, plus a burst (162). A client
 * whose answers were lost repeats jumps the server already holds; at the ~2 jumps a second of
 * real play this still covers over a minute of lost answers.
 */
export const MAX_JUMPS_PER_REPORT = Math.ceil(REPORT_SPAN_STEPS / JUMP_RATE_STEPS) + JUMP_BURST;

/** The most jumps a run may have made by `step`: the rate plus a burst, and MAX_INPUTS at most. */
export function maxJumpsBy(step: number): number {
  return Math.min(MAX_INPUTS, Math.floor(step / JUMP_RATE_STEPS) + JUMP_BURST);
}

export type PacingRefusal = { code: PacingCode; message: string };
type PacingCode =
  'RUN_BEHIND' | 'RUN_AHEAD' | 'RUN_SILENT' | 'RUN_INCONSISTENT' | 'RUN_TOO_MANY_JUMPS';

export const UNRANKED = 'This round is unranked';

export interface ReportCheck {
  /** Server time the round began running (issue time plus ROUND_START_DELAY_MS). */
  startedAt: number;
  /** Server time of the previous accepted report, or null before the first. */
  lastReportAt: number | null;
  /** Server time now. */
  now: number;
  /** The step the report says was reached. */
  step: number;
}

/** The refusal a progress report earns, or null when it is on time. */
export function checkReportTiming(check: ReportCheck): PacingRefusal | null {
  const since = check.lastReportAt ?? check.startedAt;
  if (check.now - since > MAX_REPORT_GAP_MS) {
    return {
      code: 'RUN_SILENT',
      message: `${UNRANKED}: the game stopped reporting its progress for more than ${seconds(MAX_REPORT_GAP_MS)} (was the tab paused?).`,
    };
  }
  const expectedMs = check.now - check.startedAt;
  const playedMs = check.step * STEP_MS;
  if (playedMs > expectedMs + AHEAD_TOLERANCE_MS) {
    return {
      code: 'RUN_AHEAD',
      message: `${UNRANKED}: the game ran ahead of real time.`,
    };
  }
  if (playedMs < Math.min(expectedMs, MAX_STEPS * STEP_MS) - BEHIND_TOLERANCE_MS) {
    return {
      code: 'RUN_BEHIND',
      message: `${UNRANKED}: the game fell more than ${seconds(BEHIND_TOLERANCE_MS)} behind real time (slowed or paused).`,
    };
  }
  return null;
}

/**
 * The jumps a report adds, given what the server holds: jumps before `fromStep` were reported
 * already (a report resent after a lost answer repeats them) and are dropped.
 */
export function newJumps(
  jumps: readonly number[],
  fromStep: number,
  toStep: number,
): number[] | PacingRefusal {
  const added: number[] = [];
  let previous = -1;
  for (const jump of jumps) {
    if (jump <= previous || jump >= toStep) {
      return {
        code: 'RUN_INCONSISTENT',
        message: `${UNRANKED}: the reported jumps are out of order or past the step reached.`,
      };
    }
    previous = jump;
    if (jump >= fromStep) added.push(jump);
  }
  return added;
}

/** The refusal of a report that brings the run's jumps past `maxJumpsBy(step)`. */
export function checkJumpCount(
  reported: number,
  added: number,
  step: number,
): PacingRefusal | null {
  if (reported + added <= maxJumpsBy(step)) return null;
  return {
    code: 'RUN_TOO_MANY_JUMPS',
    message: `${UNRANKED}: it reported more jumps than anyone can make (${reported + added} by step ${step}).`,
  };
}

/**
 * Whether a final jump log extends the reported one: the same jumps before the last reported
 * step, in the same order, and nothing else before it.
 */
export function extendsReported(
  inputs: readonly number[],
  reported: readonly number[],
  reportedStep: number,
): boolean {
  for (let i = 0; i < reported.length; i++) {
    if (inputs[i] !== reported[i]) return false;
  }
  const next = inputs[reported.length];
  return next === undefined || next >= reportedStep;
}

export const INCONSISTENT_LOG: PacingRefusal = {
  code: 'RUN_INCONSISTENT',
  message: `${UNRANKED}: its jumps differ from the ones reported while it was played.`,
};

function seconds(ms: number): string {
  return `${ms / 1000} s`;
}
