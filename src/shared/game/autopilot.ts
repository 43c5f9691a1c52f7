import { CANVAS_HEIGHT, GRAVITY, MAX_STEPS, WORKER_START_Y } from './constants.ts';
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
  const wantsJump = autopilot(seed);
  const inputs: number[] = [];
  while (!state.over && state.steps < limit) {
    const jump = wantsJump(state);
    if (jump) inputs.push(state.steps);
    step(state, jump);
  }
  return inputs;
}

/**
 * The autopilot's rule alone: given the state of a game of `seed` before a step, whether it
 * would jump now. Machine players built on it (timing noise, scripts/game-corpus.ts) use this.
 */
export function autopilot(seed: number): (state: GameState) => boolean {
  const scout = createScout(seed);
  return (state) => shouldJump(state, scout);
}

// Aims a little below the centre of the next gap: a jump lifts the worker about 50 px before it
// falls back, so jumping whenever it sinks past the aim keeps it inside a 140 px gap.
const AIM_BELOW_CENTRE = 12;

function shouldJump(state: GameState, scout: Scout): boolean {
  const worker = state.worker;
  const centreAfterFalling = worker.y + worker.velocity + GRAVITY + worker.size / 2;
  return centreAfterFalling > nextGapCentre(state, scout) + AIM_BELOW_CENTRE;
}

function nextGapCentre(state: GameState, scout: Scout): number {
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
  return best >= 0 ? best : scoutGapCentre(scout, state.obstaclesSpawned);
}

// At the speeds of a long run an obstacle crosses the canvas in well under a second, too little
// time to climb or drop from one gap to the next once it appears. Gaps depend only on the seed and
// the step, never on the player, so a second game of the same seed, with its worker pinned and
// nothing to hit, runs ahead and shows where the next gap will open. (A fresh game rather than a
// copy of the real one keeps the engine seeing one object shape, as it does on the server.)
interface Scout {
  game: GameState;
  /** Obstacle id whose gap centre is cached, and that centre. */
  id: number;
  centre: number;
}

function createScout(seed: number): Scout {
  return { game: createGame(seed), id: -1, centre: CANVAS_HEIGHT / 2 };
}

function scoutGapCentre(scout: Scout, id: number): number {
  if (scout.id === id) return scout.centre;
  const game = scout.game;
  while (game.obstaclesSpawned <= id && !game.over) {
    for (const o of game.obstacles) o.active = false;
    game.worker.y = WORKER_START_Y;
    game.worker.velocity = -GRAVITY;
    step(game, false);
  }
  scout.id = id;
  scout.centre = CANVAS_HEIGHT / 2;
  for (const o of game.obstacles) {
    if (o.active && o.id === id) scout.centre = o.topHeight + o.gap / 2;
  }
  return scout.centre;
}
