import { CANVAS_HEIGHT, GRAVITY, MAX_STEPS } from './constants.ts';
import { createGame, step, type GameState } from './engine.ts';

/**
 * Plays a run from `seed` and returns its jump log: the autopilot flies through every gap until
 * `targetSteps` steps have passed, then stops flapping, so `simulate(seed, inputs)` ends with a
 * crash shortly after (about half a second of falling). Tests and benchmarks use it to make
 * honest runs of a chosen length. If the autopilot crashes earlier the log is still valid, only
 * shorter; simulate tells how long the run really was.
 */
export function autopilotInputs(seed: number, targetSteps: number): number[] {
  const limit = Math.min(targetSteps, MAX_STEPS);
  const state = createGame(seed);
  const inputs: number[] = [];
  const peek: Peek = { spawned: -1, centre: 0 };
  while (!state.over && state.steps < limit) {
    const jump = shouldJump(state, peek);
    if (jump) inputs.push(state.steps);
    step(state, jump);
  }
  return inputs;
}

// Aims a little below the centre of the next gap: a jump lifts the worker about 50 px before it
// falls back, so jumping whenever it sinks past the aim keeps it inside a 140 px gap.
const AIM_BELOW_CENTRE = 12;

/** The next gap found by peeking, kept until another obstacle spawns. */
interface Peek {
  spawned: number;
  centre: number;
}

function shouldJump(state: GameState, peek: Peek): boolean {
  const worker = state.worker;
  const aim = nextGapCentre(state, peek) + AIM_BELOW_CENTRE;
  const nextBottom = worker.y + worker.velocity + GRAVITY + worker.size;
  return nextBottom - worker.size / 2 > aim;
}

function nextGapCentre(state: GameState, peek: Peek): number {
  const worker = state.worker;
  let best = -1;
  let bestX = Infinity;
  for (const o of state.obstacles) {
    if (!o.active || o.x + o.width + state.speed < worker.x) continue;
    if (o.x < bestX) {
      bestX = o.x;
      best = o.topHeight + o.gap / 2;
    }
  }
  if (best >= 0) return best;
  if (peek.spawned !== state.obstaclesSpawned) {
    peek.spawned = state.obstaclesSpawned;
    peek.centre = peekNextGapCentre(state);
  }
  return peek.centre;
}

// At the speeds of a long run an obstacle crosses the canvas in well under a second, too little
// time to climb or drop from one gap to the next. Gaps depend only on the seed and the step, never
// on the player, so a throwaway copy of the run, with the worker pinned in place and no obstacles
// to hit, shows where the next gap will open.
function peekNextGapCentre(state: GameState): number {
  const copy = structuredClone(state) as GameState;
  for (const o of copy.obstacles) o.active = false;
  const spawned = copy.obstaclesSpawned;
  while (copy.obstaclesSpawned === spawned && !copy.over) {
    copy.worker.y = CANVAS_HEIGHT / 2;
    copy.worker.velocity = -GRAVITY;
    step(copy, false);
  }
  for (const o of copy.obstacles) {
    if (o.active) return o.topHeight + o.gap / 2;
  }
  return CANVAS_HEIGHT / 2;
}
