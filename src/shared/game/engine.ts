import {
  BASE_SPEED,
  CANVAS_HEIGHT,
  CANVAS_WIDTH,
  COIN_EDGE_MARGIN,
  COIN_GAP_MARGIN,
  COIN_POOL_SIZE,
  COIN_SIZE,
  COIN_SPAWN_INTERVAL,
  COIN_SPIN_PER_STEP,
  GRAVITY,
  JUMP_VELOCITY,
  MAX_STEPS,
  OBSTACLE_GAP,
  OBSTACLE_MIN_WALL,
  OBSTACLE_POOL_SIZE,
  OBSTACLE_SPAWN_INTERVAL,
  OBSTACLE_TYPES,
  OBSTACLE_WIDTH,
  POWER_UPS_COLLECTED,
  SCORE_INTERVAL_STEPS,
  SCORE_PER_INTERVAL,
  SCORE_PER_OBSTACLE,
  SPEED_PER_POINT,
  STEPS_PER_SECOND,
  WORKER_MAX_ROTATION,
  WORKER_MIN_ROTATION,
  WORKER_ROTATION_PER_VELOCITY,
  WORKER_SIZE,
  WORKER_START_Y,
  WORKER_X,
} from './constants.ts';
import { createPrng, nextInt, type Prng } from './prng.ts';

// The per-step path (step and what it calls) creates no objects, arrays or closures: it only
// rewrites numbers and flags in pools made once by createGame. It uses + - * / and Math.floor,
// min and max, which IEEE 754 defines exactly, so browser and server agree to the last bit.

export type ObstacleType = (typeof OBSTACLE_TYPES)[number];
type EndReason = 'ceiling' | 'floor' | 'obstacle' | 'time-limit';

interface Worker {
  x: number;
  y: number;
  /** y before the last step, for rendering between steps. */
  prevY: number;
  size: number;
  velocity: number;
  /** Tilt in degrees, derived from velocity: negative noses up. */
  rotation: number;
}

export interface Obstacle {
  /** Slots are reused; the renderer skips inactive ones. */
  active: boolean;
  /** Spawn number, stable while the obstacle lives (handy for per-obstacle visuals). */
  id: number;
  type: ObstacleType;
  x: number;
  prevX: number;
  width: number;
  gap: number;
  topHeight: number;
  bottomHeight: number;
  passed: boolean;
}

interface Coin {
  active: boolean;
  id: number;
  x: number;
  prevX: number;
  y: number;
  size: number;
  /** Spin in degrees, [0, 360). */
  rotation: number;
  /** Collected coins stay active (for a pick-up effect) until they leave the canvas. */
  collected: boolean;
}

export interface GameState {
  readonly seed: number;
  readonly prng: Prng;
  /** Steps completed; a jump "at step n" is applied by the step taken when steps === n. */
  steps: number;
  score: number;
  coins: number;
  obstaclesPassed: number;
  jumps: number;
  /** Horizontal speed used by the last step (BASE_SPEED before the first). */
  speed: number;
  over: boolean;
  /** Why the run ended; null while it runs. Every reason but 'time-limit' is a crash. */
  endReason: EndReason | null;
  readonly worker: Worker;
  /** Fixed-length pools: OBSTACLE_POOL_SIZE and COIN_POOL_SIZE slots, never resized. */
  readonly obstacles: readonly Obstacle[];
  readonly coinPool: readonly Coin[];
  obstaclesSpawned: number;
  coinsSpawned: number;
}

type DeepReadonly<T> = T extends readonly (infer U)[]
  ? readonly DeepReadonly<U>[]
  : T extends object
    ? { readonly [K in keyof T]: DeepReadonly<T[K]> }
    : T;

/** What the renderer and HUD receive: they read the state and never change it. */
export type ReadonlyGameState = DeepReadonly<GameState>;

export interface RunSummary {
  score: number;
  coins: number;
  obstaclesPassed: number;
  steps: number;
  level: number;
  tasksCompleted: number;
  powerUpsCollected: number;
  jumps: number;
  /** Whole seconds of flight (steps / 60, rounded down). */
  gameTime: number;
  /** False when the run is still going or ended at MAX_STEPS. */
  crashed: boolean;
  endReason: EndReason | null;
}

export function speedForScore(score: number): number {
  return BASE_SPEED + SPEED_PER_POINT * score;
}

export function levelForScore(score: number): number {
  return Math.floor(score / 10) + 1;
}

export function createGame(seed: number): GameState {
  const obstacles: Obstacle[] = [];
  for (let i = 0; i < OBSTACLE_POOL_SIZE; i++) {
    obstacles.push({
      active: false,
      id: -1,
      type: OBSTACLE_TYPES[0],
      x: 0,
      prevX: 0,
      width: OBSTACLE_WIDTH,
      gap: OBSTACLE_GAP,
      topHeight: 0,
      bottomHeight: 0,
      passed: false,
    });
  }
  const coinPool: Coin[] = [];
  for (let i = 0; i < COIN_POOL_SIZE; i++) {
    coinPool.push({
      active: false,
      id: -1,
      x: 0,
      prevX: 0,
      y: 0,
      size: COIN_SIZE,
      rotation: 0,
      collected: false,
    });
  }
  return {
    seed,
    prng: createPrng(seed),
    steps: 0,
    score: 0,
    coins: 0,
    obstaclesPassed: 0,
    jumps: 0,
    speed: BASE_SPEED,
    over: false,
    endReason: null,
    worker: {
      x: WORKER_X,
      y: WORKER_START_Y,
      prevY: WORKER_START_Y,
      size: WORKER_SIZE,
      velocity: 0,
      rotation: 0,
    },
    obstacles,
    coinPool,
    obstaclesSpawned: 0,
    coinsSpawned: 0,
  };
}

/**
 * Advances the run by one step. Order within a step: jump and gravity move the worker; obstacles
 * and coins move left (an obstacle whose right edge passes the worker's x scores); coins touching
 * the worker are collected; new obstacles and coins spawn at the right edge; the step counter and
 * the time score advance; finally a collision ends the run. Does nothing once the run is over.
 */
export function step(state: GameState, jump: boolean): void {
  if (state.over) return;
  const speed = speedForScore(state.score);
  state.speed = speed;
  const index = state.steps;

  const worker = state.worker;
  worker.prevY = worker.y;
  if (jump) {
    worker.velocity = JUMP_VELOCITY;
    state.jumps += 1;
  }
  worker.velocity += GRAVITY;
  worker.y += worker.velocity;
  worker.rotation = Math.min(
    WORKER_MAX_ROTATION,
    Math.max(WORKER_MIN_ROTATION, worker.velocity * WORKER_ROTATION_PER_VELOCITY),
  );

  moveObstacles(state, speed);
  moveCoins(state, speed);

  let gapTop = -1;
  if (index % OBSTACLE_SPAWN_INTERVAL === 0) gapTop = spawnObstacle(state);
  if (index % COIN_SPAWN_INTERVAL === 0) spawnCoin(state, gapTop);

  state.steps = index + 1;
  if (state.steps % SCORE_INTERVAL_STEPS === 0) state.score += SCORE_PER_INTERVAL;

  if (worker.y < 0) end(state, 'ceiling');
  else if (worker.y + worker.size > CANVAS_HEIGHT) end(state, 'floor');
  else if (hitsObstacle(state)) end(state, 'obstacle');
  else if (state.steps >= MAX_STEPS) end(state, 'time-limit');
}

export function summarize(state: ReadonlyGameState): RunSummary {
  return {
    score: state.score,
    coins: state.coins,
    obstaclesPassed: state.obstaclesPassed,
    steps: state.steps,
    level: levelForScore(state.score),
    tasksCompleted: state.score,
    powerUpsCollected: POWER_UPS_COLLECTED,
    jumps: state.jumps,
    gameTime: Math.floor(state.steps / STEPS_PER_SECOND),
    crashed: state.endReason !== null && state.endReason !== 'time-limit',
    endReason: state.endReason,
  };
}

function end(state: GameState, reason: EndReason): void {
  state.over = true;
  state.endReason = reason;
}

/** The office scrolls past the worker; `prevX` keeps the last step's place to draw between steps. */
function scrollLeft(thing: { prevX: number; x: number }, speed: number): void {
  thing.prevX = thing.x;
  thing.x -= speed;
}

function moveObstacles(state: GameState, speed: number): void {
  const pool = state.obstacles;
  for (let i = 0; i < pool.length; i++) {
    const o = pool[i]!;
    if (!o.active) continue;
    scrollLeft(o, speed);
    if (!o.passed && o.x + o.width < WORKER_X) {
      o.passed = true;
      state.obstaclesPassed += 1;
      state.score += SCORE_PER_OBSTACLE;
    }
    if (o.x + o.width < 0) o.active = false;
  }
}

// Objects are tested over the whole span they swept this step (x .. prevX + size), so that at the
// speeds of a long run (the speed grows with the score) nothing can jump over the worker.
function moveCoins(state: GameState, speed: number): void {
  const worker = state.worker;
  const pool = state.coinPool;
  for (let i = 0; i < pool.length; i++) {
    const c = pool[i]!;
    if (!c.active) continue;
    scrollLeft(c, speed);
    c.rotation += COIN_SPIN_PER_STEP;
    if (c.rotation >= 360) c.rotation -= 360;
    if (
      !c.collected &&
      c.x < worker.x + worker.size &&
      c.prevX + c.size > worker.x &&
      c.y < worker.y + worker.size &&
      c.y + c.size > worker.y
    ) {
      c.collected = true;
      state.coins += 1;
    }
    if (c.x + c.size < 0) c.active = false;
  }
}

function hitsObstacle(state: GameState): boolean {
  const worker = state.worker;
  const pool = state.obstacles;
  for (let i = 0; i < pool.length; i++) {
    const o = pool[i]!;
    if (!o.active) continue;
    if (o.x >= worker.x + worker.size || o.prevX + o.width <= worker.x) continue;
    if (worker.y < o.topHeight || worker.y + worker.size > CANVAS_HEIGHT - o.bottomHeight) {
      return true;
    }
  }
  return false;
}

/** Returns the new gap's top edge so a coin spawned in the same step can sit inside the gap. */
function spawnObstacle(state: GameState): number {
  const o = freeSlot(state.obstacles);
  const topRange = CANVAS_HEIGHT - OBSTACLE_GAP - 2 * OBSTACLE_MIN_WALL + 1;
  const topHeight = OBSTACLE_MIN_WALL + nextInt(state.prng, topRange);
  o.active = true;
  o.id = state.obstaclesSpawned;
  o.type = OBSTACLE_TYPES[nextInt(state.prng, OBSTACLE_TYPES.length)]!;
  o.x = CANVAS_WIDTH;
  o.prevX = CANVAS_WIDTH;
  o.width = OBSTACLE_WIDTH;
  o.gap = OBSTACLE_GAP;
  o.topHeight = topHeight;
  o.bottomHeight = CANVAS_HEIGHT - topHeight - OBSTACLE_GAP;
  o.passed = false;
  state.obstaclesSpawned += 1;
  return topHeight;
}

function spawnCoin(state: GameState, gapTop: number): void {
  const c = freeSlot(state.coinPool);
  let x: number;
  let y: number;
  if (gapTop >= 0) {
    x = CANVAS_WIDTH + (OBSTACLE_WIDTH - COIN_SIZE) / 2;
    y =
      gapTop +
      COIN_GAP_MARGIN +
      nextInt(state.prng, OBSTACLE_GAP - COIN_SIZE - 2 * COIN_GAP_MARGIN + 1);
  } else {
    // Half an obstacle interval from the last obstacle, so the coin is clear of every wall.
    x = CANVAS_WIDTH;
    y =
      COIN_EDGE_MARGIN + nextInt(state.prng, CANVAS_HEIGHT - COIN_SIZE - 2 * COIN_EDGE_MARGIN + 1);
  }
  c.active = true;
  c.id = state.coinsSpawned;
  c.x = x;
  c.prevX = x;
  c.y = y;
  c.size = COIN_SIZE;
  c.rotation = 0;
  c.collected = false;
  state.coinsSpawned += 1;
}

function freeSlot<T extends { active: boolean }>(pool: readonly T[]): T {
  for (let i = 0; i < pool.length; i++) {
    const slot = pool[i]!;
    if (!slot.active) return slot;
  }
  // Unreachable: pool sizes are derived from the slowest speed (see constants.ts).
  throw new Error('game object pool exhausted');
}
