import { MAX_STEPS, STEP_MS, STEPS_PER_SECOND } from './constants.ts';

// A round is played in real time: while it runs, the client reports the step it has reached and
// the jumps it made since its last acknowledged report, and the server compares each report with
// its own clock (docs/decisions/012-runs-paced-in-real-time.md). These are the shared rules.

/** Spec: countdown 3, 2, 1, GO over three seconds, the round itself about 800 ms later. */
export const COUNTDOWN_STEP_MS = 1000;
export const GO_TO_RUNNING_MS = 800;
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

export type PacingRefusal = { code: PacingCode; message: string };
export type PacingCode = 'RUN_BEHIND' | 'RUN_AHEAD' | 'RUN_SILENT' | 'RUN_INCONSISTENT';

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
