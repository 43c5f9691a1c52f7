import { MAX_INPUTS, MAX_STEPS } from './constants.ts';
import { createGame, step, summarize, type ReadonlyGameState, type RunSummary } from './engine.ts';
import { isUint32 } from './prng.ts';

export interface SimulateLimits {
  /**
   * Stricter bound than MAX_STEPS, e.g. the steps that fit in the real time since the run was
   * issued. A run that would last longer is refused ('too-long'), never cut short.
   */
  maxSteps?: number;
  /** Stricter bound than MAX_INPUTS. */
  maxInputs?: number;
}

type InvalidRunReason =
  | 'invalid-seed'
  | 'not-an-array'
  | 'too-many-inputs'
  | 'not-an-integer'
  | 'negative'
  | 'not-increasing'
  | 'too-long'
  | 'after-end';

/**
 * Watches a replay step by step (the reviewer's statistics), so one replay of a finished run
 * gives both its verdict and its figures.
 */
export interface StepObserver {
  /** Before step `state.steps` is taken, with whether it is a jump. */
  beforeStep(state: ReadonlyGameState, jump: boolean): void;
  afterStep(state: ReadonlyGameState): void;
}

export type ValidRun = { ok: true } & RunSummary;
interface InvalidRun {
  ok: false;
  reason: InvalidRunReason;
  message: string;
}
export type SimulationResult = ValidRun | InvalidRun;

/**
 * Replays a run from its seed and the strictly increasing step numbers at which the player
 * jumped. After the last jump the worker stops flapping, so the replay runs on until the crash,
 * or until MAX_STEPS, where a run ends by itself (then `crashed` is false).
 */
export function simulate(
  seed: number,
  inputs: readonly number[],
  limits: SimulateLimits = {},
  observer?: StepObserver,
): SimulationResult {
  const maxSteps = bound(limits.maxSteps, MAX_STEPS, 'maxSteps');
  const maxInputs = bound(limits.maxInputs, MAX_INPUTS, 'maxInputs');

  if (!isUint32(seed)) return invalid('invalid-seed', 'The seed must be an integer in [0, 2^32).');
  if (!Array.isArray(inputs)) return invalid('not-an-array', 'The inputs must be an array.');
  if (inputs.length > maxInputs) {
    return invalid('too-many-inputs', `At most ${maxInputs} jumps are accepted.`);
  }
  let previous = -1;
  for (let i = 0; i < inputs.length; i++) {
    const value: unknown = inputs[i];
    if (typeof value !== 'number' || !Number.isSafeInteger(value)) {
      return invalid('not-an-integer', `Jump ${i} is not an integer step number.`);
    }
    if (value < 0) return invalid('negative', `Jump ${i} has a negative step number.`);
    if (value <= previous) {
      return invalid('not-increasing', `Jump ${i} does not come after the jump before it.`);
    }
    if (value >= maxSteps) return invalid('too-long', `Jump ${i} is beyond step ${maxSteps - 1}.`);
    previous = value;
  }

  const state = createGame(seed);
  let next = 0;
  while (!state.over) {
    if (state.steps >= maxSteps) {
      return invalid('too-long', `The run lasts longer than ${maxSteps} steps.`);
    }
    const jump = next < inputs.length && inputs[next] === state.steps;
    if (jump) next += 1;
    observer?.beforeStep(state, jump);
    step(state, jump);
    observer?.afterStep(state);
  }
  if (next < inputs.length) {
    return invalid(
      'after-end',
      `Jump ${next} at step ${inputs[next]} comes after the run ended at step ${state.steps - 1}.`,
    );
  }
  return { ok: true, ...summarize(state) };
}

function bound(value: number | undefined, max: number, name: string): number {
  if (value === undefined) return max;
  if (!Number.isSafeInteger(value) || value < 0) {
    throw new RangeError(`${name} must be a non-negative integer, got ${value}`);
  }
  return Math.min(value, max);
}

function invalid(reason: InvalidRunReason, message: string): InvalidRun {
  return { ok: false, reason, message };
}
