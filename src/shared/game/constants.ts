// Every rate below is per simulation step. The game always advances at STEPS_PER_SECOND, whatever
// the display's refresh rate, so the spec's "per frame" figures are read as "per step".

export const STEPS_PER_SECOND = 60;
export const STEP_MS = 1000 / STEPS_PER_SECOND;

export const CANVAS_WIDTH = 700;
export const CANVAS_HEIGHT = 400;

export const WORKER_SIZE = 30;
export const WORKER_X = 100;
export const WORKER_START_Y = (CANVAS_HEIGHT - WORKER_SIZE) / 2;
export const GRAVITY = 0.6;
export const JUMP_VELOCITY = -8;
/** Degrees of tilt per unit of vertical velocity, clamped so the worker never flips over. */
export const WORKER_ROTATION_PER_VELOCITY = 3;
export const WORKER_MIN_ROTATION = -30;
export const WORKER_MAX_ROTATION = 90;

export const OBSTACLE_WIDTH = 60;
export const OBSTACLE_GAP = 140;
export const OBSTACLE_SPAWN_INTERVAL = 120;
/** Shortest top or bottom wall, so a gap never opens against the ceiling or the floor. */
export const OBSTACLE_MIN_WALL = 50;
export const OBSTACLE_TYPES = ['cubicle', 'window', 'door'] as const;

export const COIN_SIZE = 20;
export const COIN_SPAWN_INTERVAL = 60;
/** Free-flying coins keep this far from the ceiling and the floor. */
export const COIN_EDGE_MARGIN = 40;
/** A coin spawned with an obstacle sits inside its gap, this far from either wall. */
export const COIN_GAP_MARGIN = 20;
export const COIN_SPIN_PER_STEP = 6;

export const BASE_SPEED = 2;
export const SPEED_PER_POINT = 0.01;

export const SCORE_INTERVAL_STEPS = 10;
export const SCORE_PER_INTERVAL = 1;
export const SCORE_PER_OBSTACLE = 10;
export const POWER_UPS_COLLECTED = 0;

/** A run ends by itself after 15 minutes; this also bounds what one server replay can cost. */
export const MAX_STEPS = STEPS_PER_SECOND * 60 * 15;
/**
 * Longest jump log a replay accepts. Staying airborne takes about one jump per 27 steps, so one
 * jump per 5 steps over a whole run is far beyond any human, yet keeps the payload near 65 KB.
 */
export const MAX_INPUTS = MAX_STEPS / 5;

// Speed never drops below BASE_SPEED, so an object crosses the canvas in a bounded number of steps
// and these pools can never fill: at most ceil(travel / BASE_SPEED / interval) objects are alive.
export const OBSTACLE_POOL_SIZE =
  Math.ceil((CANVAS_WIDTH + OBSTACLE_WIDTH) / BASE_SPEED / OBSTACLE_SPAWN_INTERVAL) + 1;
export const COIN_POOL_SIZE =
  Math.ceil((CANVAS_WIDTH + OBSTACLE_WIDTH) / BASE_SPEED / COIN_SPAWN_INTERVAL) + 1;

/**
 * Speeds a replay viewer offers. The fastest bounds how soon an operator can have watched a run
 * to its end (server/prize/review.ts).
 */
export const REPLAY_SPEEDS = [0.25, 0.5, 1, 2, 4] as const;
export type ReplaySpeed = (typeof REPLAY_SPEEDS)[number];
