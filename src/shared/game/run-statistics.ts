import { CANVAS_HEIGHT, STEP_MS } from './constants.ts';
import type { ReadonlyGameState } from './engine.ts';
import type { StepObserver } from './simulate.ts';

/**
 * Figures computed from a run's replay that point a human reviewer at machine-like play. They
 * never refuse a run: no recorded human play exists here to set their thresholds against, so
 * the signs below are marked from what machines do, not from a measured human spread.
 */
export interface RunStatistics {
  jumps: number;
  /** Median time between consecutive jumps. */
  jumpIntervalMedianMs: number;
  /** Spread of the intervals between jumps: standard deviation over mean (0 = a metronome). */
  jumpIntervalCv: number;
  /**
   * Spread (median absolute deviation) of where the worker's centre is, relative to the next gap's
   * centre, at the moment of each jump. A player who jumps "when it looks low" varies by tens of
   * pixels; a rule that jumps at a threshold barely varies.
   */
  aimSpreadPx: number;
  /** Closest the worker came to a gap's edge while passing an obstacle (pixels). */
  edgeMarginMinPx: number;
  /** Median of that closest approach over the obstacles passed. */
  edgeMarginMedianPx: number;
  /** Median time from a gap coming into view to the first jump after it. */
  reactionMedianMs: number;
  /** Share of gaps whose first jump followed within 100 ms of the gap coming into view. */
  fastReactionShare: number;
  /** Highest speed reached (pixels per step). */
  topSpeed: number;
}

/** A sign of machine-like play, worded for the reviewer. */
export interface MachineSign {
  key: 'metronome' | 'steady-aim';
  label: string;
}

// Thresholds. Chosen from the machine players of the corpus (scripts/game-corpus.ts), so they
// say "this looks like those machines", not "no human plays like this".
const METRONOME_CV = 0.05;
const STEADY_AIM_PX = 6;
const FAST_REACTION_MS = 100;
const MIN_JUMPS = 8;

export function machineSigns(stats: RunStatistics): MachineSign[] {
  if (stats.jumps < MIN_JUMPS) return [];
  const signs: MachineSign[] = [];
  if (stats.jumpIntervalCv < METRONOME_CV) {
    signs.push({ key: 'metronome', label: 'Jumps at an unvarying rhythm' });
  }
  if (stats.aimSpreadPx < STEADY_AIM_PX) {
    signs.push({ key: 'steady-aim', label: 'Jumps at the same height every time' });
  }
  return signs;
}

/**
 * Measures a run as it is replayed: handed to `simulate`, so the one replay that verifies a
 * finished run also gives its figures.
 */
export class RunStatisticsRecorder implements StepObserver {
  private readonly intervals: number[] = [];
  private readonly aims: number[] = [];
  private readonly margins: number[] = [];
  private readonly reactions: number[] = [];
  /** Obstacle id -> closest approach so far while overlapping. */
  private readonly closest = new Map<number, number>();
  /** Obstacle ids waiting for their first jump, with the step they came into view. */
  private readonly waiting = new Map<number, number>();
  private topSpeed = 0;
  private lastJump = -1;
  private jumps = 0;
  private spawnedBefore = 0;

  beforeStep(state: ReadonlyGameState, jump: boolean): void {
    this.topSpeed = Math.max(this.topSpeed, state.speed);
    this.spawnedBefore = state.obstaclesSpawned;
    if (!jump) return;
    if (this.lastJump >= 0) this.intervals.push((state.steps - this.lastJump) * STEP_MS);
    this.lastJump = state.steps;
    const centre = nextGapCentre(state);
    if (centre !== null) this.aims.push(state.worker.y + state.worker.size / 2 - centre);
    for (const [, seenAt] of this.waiting) this.reactions.push((state.steps - seenAt) * STEP_MS);
    this.waiting.clear();
  }

  afterStep(state: ReadonlyGameState): void {
    if (state.obstaclesSpawned > this.spawnedBefore) {
      this.waiting.set(this.spawnedBefore, state.steps);
    }
    this.topSpeed = Math.max(this.topSpeed, state.speed);
    this.jumps = state.jumps;
    trackMargins(state, this.closest, this.margins);
  }

  /** The figures of the steps seen so far (the whole run once the replay is over). */
  result(): RunStatistics {
    const { intervals, aims, margins, reactions } = this;
    const fast = reactions.filter((ms) => ms <= FAST_REACTION_MS).length;
    return {
      jumps: this.jumps,
      jumpIntervalMedianMs: round(median(intervals)),
      jumpIntervalCv: round(cv(intervals), 3),
      aimSpreadPx: round(medianAbsoluteDeviation(aims)),
      edgeMarginMinPx: round(margins.length ? Math.min(...margins) : 0),
      edgeMarginMedianPx: round(median(margins)),
      reactionMedianMs: round(median(reactions)),
      fastReactionShare: round(reactions.length ? fast / reactions.length : 0, 3),
      topSpeed: round(this.topSpeed, 2),
    };
  }
}

function nextGapCentre(state: ReadonlyGameState): number | null {
  let best: number | null = null;
  let bestX = Infinity;
  for (const o of state.obstacles) {
    if (!o.active || o.x + o.width < state.worker.x) continue;
    if (o.x < bestX) {
      bestX = o.x;
      best = o.topHeight + o.gap / 2;
    }
  }
  return best;
}

/** Records each obstacle's closest approach once the worker has passed it. */
function trackMargins(
  state: ReadonlyGameState,
  closest: Map<number, number>,
  margins: number[],
): void {
  const w = state.worker;
  for (const o of state.obstacles) {
    if (!o.active) continue;
    const overlapping = o.x < w.x + w.size && o.x + o.width > w.x;
    if (overlapping) {
      const margin = Math.min(w.y - o.topHeight, CANVAS_HEIGHT - o.bottomHeight - (w.y + w.size));
      closest.set(o.id, Math.min(closest.get(o.id) ?? Infinity, margin));
    } else if (closest.has(o.id) && o.x + o.width <= w.x) {
      margins.push(closest.get(o.id)!);
      closest.delete(o.id);
    }
  }
}

function median(values: number[]): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/** Robust spread: the few jumps that change from one gap to the next do not swamp it. */
function medianAbsoluteDeviation(values: number[]): number {
  const m = median(values);
  return median(values.map((v) => Math.abs(v - m)));
}

function mean(values: number[]): number {
  return values.reduce((sum, v) => sum + v, 0) / values.length;
}

function stdev(values: number[]): number {
  if (values.length < 2) return 0;
  const m = mean(values);
  return Math.sqrt(values.reduce((sum, v) => sum + (v - m) ** 2, 0) / (values.length - 1));
}

function cv(values: number[]): number {
  if (values.length < 2) return 0;
  const m = mean(values);
  return m > 0 ? stdev(values) / m : 0;
}

function round(value: number, digits = 1): number {
  const f = 10 ** digits;
  return Math.round(value * f) / f;
}
