import { describe, expect, it } from 'vitest';
import { autopilotInputs } from './autopilot.ts';
import * as C from './constants.ts';
import {
  createGame,
  levelForScore,
  speedForScore,
  step,
  summarize,
  type GameState,
  type Obstacle,
} from './engine.ts';

/** Sets the worker so that the next step leaves it exactly at `y` (velocity -g plus g is 0). */
function pinWorker(state: GameState, y: number): void {
  state.worker.y = y;
  state.worker.velocity = -C.GRAVITY;
}

function clearObstacles(state: GameState): void {
  for (const o of state.obstacles) o.active = false;
}

function activeObstacles(state: GameState): Obstacle[] {
  return state.obstacles.filter((o) => o.active);
}

/** Steps a seed's autopilot run, calling `watch` before and after every step. */
function playAutopilot(
  seed: number,
  steps: number,
  watch: (state: GameState, phase: 'before' | 'after') => void,
): GameState {
  const jumps = new Set(autopilotInputs(seed, steps));
  const state = createGame(seed);
  while (!state.over && state.steps < steps) {
    watch(state, 'before');
    step(state, jumps.has(state.steps));
    watch(state, 'after');
  }
  return state;
}

describe('constants', () => {
  it('are the spec values, per step', () => {
    expect(C.STEPS_PER_SECOND).toBe(60);
    expect([C.CANVAS_WIDTH, C.CANVAS_HEIGHT]).toEqual([700, 400]);
    expect([C.WORKER_SIZE, C.WORKER_X]).toEqual([30, 100]);
    expect(C.WORKER_START_Y).toBe(185);
    expect(C.GRAVITY).toBe(0.6);
    expect(C.JUMP_VELOCITY).toBe(-8);
    expect([C.OBSTACLE_WIDTH, C.OBSTACLE_GAP, C.OBSTACLE_SPAWN_INTERVAL]).toEqual([60, 140, 120]);
    expect(C.OBSTACLE_TYPES).toEqual(['cubicle', 'window', 'door']);
    expect([C.COIN_SIZE, C.COIN_SPAWN_INTERVAL]).toEqual([20, 60]);
    expect([C.BASE_SPEED, C.SPEED_PER_POINT]).toEqual([2, 0.01]);
    expect([C.SCORE_INTERVAL_STEPS, C.SCORE_PER_INTERVAL, C.SCORE_PER_OBSTACLE]).toEqual([
      10, 1, 10,
    ]);
    expect(C.POWER_UPS_COLLECTED).toBe(0);
    expect(C.MAX_STEPS).toBe(54_000);
    expect(C.MAX_INPUTS).toBe(10_800);
  });
});

describe('createGame', () => {
  it('starts with the worker centred at x 100, still, and nothing scored', () => {
    const state = createGame(7);
    expect(state.worker).toEqual({
      x: 100,
      y: 185,
      prevY: 185,
      size: 30,
      velocity: 0,
      rotation: 0,
    });
    expect(state).toMatchObject({
      seed: 7,
      steps: 0,
      score: 0,
      coins: 0,
      obstaclesPassed: 0,
      jumps: 0,
      speed: 2,
      over: false,
      endReason: null,
    });
    expect(state.obstacles).toHaveLength(C.OBSTACLE_POOL_SIZE);
    expect(state.coinPool).toHaveLength(C.COIN_POOL_SIZE);
    expect([...state.obstacles, ...state.coinPool].some((o) => o.active)).toBe(false);
  });

  it('keeps the seed and the generator in the state, so two games never share anything', () => {
    const a = createGame(5);
    const b = createGame(5);
    for (let i = 0; i < 200; i++) step(a, i % 20 === 0);
    expect(b.prng.state).toBe(createGame(5).prng.state);
    expect(b.steps).toBe(0);
  });

  it('refuses a seed that is not an unsigned 32-bit integer', () => {
    expect(() => createGame(-1)).toThrow(RangeError);
    expect(() => createGame(2 ** 32)).toThrow(RangeError);
  });
});

describe('worker', () => {
  it('falls under gravity: velocity grows 0.6 per step and moves the worker that step', () => {
    const state = createGame(1);
    let y = 185;
    let velocity = 0;
    for (let i = 1; i <= 10; i++) {
      step(state, false);
      velocity += 0.6;
      y += velocity;
      expect(state.worker.velocity).toBe(velocity);
      expect(state.worker.y).toBe(y);
      expect(state.worker.velocity).toBeCloseTo(0.6 * i, 10);
    }
    expect(state.worker.y).toBeCloseTo(185 + 0.3 * 10 * 11, 10);
  });

  it('jumps by setting the velocity to -8, then gravity acts within the same step', () => {
    const state = createGame(1);
    for (let i = 0; i < 5; i++) step(state, false);
    const before = state.worker.y;
    step(state, true);
    expect(state.worker.velocity).toBeCloseTo(-8 + 0.6, 12);
    expect(state.worker.y).toBeCloseTo(before - 7.4, 12);
    expect(state.worker.prevY).toBe(before);
    expect(state.jumps).toBe(1);
  });

  it('tilts with its velocity, nose up when rising, clamped to [-30, 90] degrees', () => {
    const state = createGame(1);
    step(state, true);
    expect(state.worker.rotation).toBeCloseTo(-7.4 * 3, 10);
    for (let i = 0; i < 15; i++) step(state, false);
    expect(state.worker.velocity).toBeGreaterThan(0);
    expect(state.worker.rotation).toBeCloseTo(state.worker.velocity * 3, 10);
    for (const [velocity, rotation] of [
      [-40, -30],
      [40, 90],
    ] as const) {
      const tilted = createGame(1);
      tilted.worker.velocity = velocity;
      step(tilted, false);
      expect(tilted.worker.rotation).toBe(rotation);
    }
  });

  it('crashes into the floor after 25 steps without a jump', () => {
    const state = createGame(3);
    let lastY = state.worker.y;
    while (!state.over) {
      lastY = state.worker.y;
      step(state, false);
    }
    // 185 + 0.3 n (n + 1) > 370 first holds for n = 25.
    expect(state.steps).toBe(25);
    expect(lastY + 30).toBeLessThanOrEqual(400);
    expect(state.worker.y + 30).toBeGreaterThan(400);
    expect(state.endReason).toBe('floor');
    expect(summarize(state).crashed).toBe(true);
  });

  it('crashes into the ceiling once its top goes above 0', () => {
    const state = createGame(3);
    let lastY = state.worker.y;
    while (!state.over) {
      lastY = state.worker.y;
      step(state, state.steps % 4 === 0);
    }
    expect(lastY).toBeGreaterThanOrEqual(0);
    expect(state.worker.y).toBeLessThan(0);
    expect(state.endReason).toBe('ceiling');
  });

  it('does nothing once the run is over, jump or not', () => {
    const state = createGame(3);
    while (!state.over) step(state, false);
    const frozen = structuredClone(state);
    step(state, true);
    step(state, false);
    expect(state).toEqual(frozen);
  });
});

describe('obstacles', () => {
  it('spawn every 120 steps, first in step 0, at the right edge of the canvas', () => {
    const state = createGame(11);
    step(state, false);
    expect(state.obstaclesSpawned).toBe(1);
    const [first] = activeObstacles(state);
    expect(first).toMatchObject({ x: 700, prevX: 700, width: 60, gap: 140, passed: false, id: 0 });
    for (let i = 1; i < 240; i++) {
      pinWorker(state, first!.topHeight + 40);
      step(state, false);
      expect(state.obstaclesSpawned).toBe(Math.floor(i / 120) + 1);
    }
    pinWorker(state, first!.topHeight + 40);
    step(state, false);
    expect(state.obstaclesSpawned).toBe(3);
    expect(activeObstacles(state).some((o) => o.id === 2 && o.x === 700)).toBe(true);
  });

  it('open a 140 px gap between walls at least 50 px tall, of each type, chosen by the seed', () => {
    const seen = new Map<number, Obstacle>();
    playAutopilot(21, 12_000, (state) => {
      for (const o of activeObstacles(state)) if (!seen.has(o.id)) seen.set(o.id, { ...o });
    });
    const all = [...seen.values()];
    expect(all.length).toBeGreaterThanOrEqual(99);
    for (const o of all) {
      expect(o.topHeight + o.gap + o.bottomHeight).toBe(400);
      expect(Number.isInteger(o.topHeight)).toBe(true);
      expect(o.topHeight).toBeGreaterThanOrEqual(50);
      expect(o.bottomHeight).toBeGreaterThanOrEqual(50);
    }
    expect(new Set(all.map((o) => o.type))).toEqual(new Set(['cubicle', 'window', 'door']));
    expect(new Set(all.map((o) => o.topHeight)).size).toBeGreaterThan(30);

    const other = new Map<number, number>();
    playAutopilot(22, 3000, (state) => {
      for (const o of activeObstacles(state)) other.set(o.id, o.topHeight);
    });
    const same = [...other].filter(([id, top]) => seen.get(id)?.topHeight === top).length;
    expect(same).toBeLessThan(other.size / 2);
  });

  it('move left by the speed, 2 + 0.01 per score point, each step', () => {
    const state = createGame(4);
    step(state, false);
    const [o] = activeObstacles(state);
    pinWorker(state, o!.topHeight + 50);
    step(state, false);
    expect(o!.x).toBe(698);
    expect(o!.prevX).toBe(700);
    state.score = 250;
    pinWorker(state, o!.topHeight + 50);
    step(state, false);
    expect(state.speed).toBe(4.5);
    expect(o!.x).toBe(698 - 4.5);
  });

  it('score 10 in the step their right edge passes the worker x, once each', () => {
    let checked = 0;
    const final = playAutopilot(8, 3000, (state, phase) => {
      if (phase !== 'after') return;
      for (const o of activeObstacles(state)) {
        if (o.prevX + o.width >= 100 && o.x + o.width < 100) {
          expect(o.passed).toBe(true);
          checked += 1;
        }
        expect(o.passed).toBe(o.x + o.width < 100);
      }
    });
    expect(final.obstaclesPassed).toBe(checked);
    expect(checked).toBeGreaterThanOrEqual(20);
    expect(final.score).toBe(Math.floor(final.steps / 10) + 10 * final.obstaclesPassed);
  });

  it('let the worker through the gap, but end the run when it touches a wall', () => {
    const through = createGame(30);
    step(through, false);
    const [o] = activeObstacles(through);
    const inGap = o!.topHeight + (140 - 30) / 2;
    while (!o!.passed) {
      pinWorker(through, inGap);
      step(through, false);
    }
    expect(through.over).toBe(false);
    expect(through.obstaclesPassed).toBe(1);

    for (const y of [o!.topHeight - 1, 400 - o!.bottomHeight - 29]) {
      const state = createGame(30);
      let touching = false;
      while (!state.over) {
        pinWorker(state, y);
        step(state, false);
        const wall = state.obstacles[0]!;
        touching = wall.x < 130 && wall.prevX + 60 > 100;
        expect(state.over).toBe(touching);
      }
      expect(touching).toBe(true);
      expect(state.endReason).toBe('obstacle');
    }
  });

  it('cannot pass through the worker between two steps at high speed', () => {
    const state = createGame(30);
    step(state, false);
    const [o] = activeObstacles(state);
    o!.x = 131;
    state.score = 9800;
    pinWorker(state, o!.topHeight - 10);
    step(state, false);
    expect(state.speed).toBe(100);
    expect(o!.x + o!.width).toBeLessThan(100);
    expect(state.endReason).toBe('obstacle');
  });
});

describe('coins', () => {
  it('spawn every 60 steps, 20 px, clear of every wall', () => {
    let spawned = 0;
    const final = playAutopilot(13, 6000, (state, phase) => {
      if (phase !== 'after') return;
      for (const c of state.coinPool) {
        if (!c.active) continue;
        if (c.id >= spawned) {
          spawned = c.id + 1;
          expect(c.size).toBe(20);
          expect(c.x).toBe((state.steps - 1) % 120 === 0 ? 720 : 700);
          expect(c.y).toBeGreaterThanOrEqual(40);
          expect(c.y + 20).toBeLessThanOrEqual(360);
        }
        for (const o of activeObstacles(state)) {
          if (c.x < o.x + o.width && c.x + c.size > o.x) {
            expect(c.y).toBeGreaterThanOrEqual(o.topHeight);
            expect(c.y + c.size).toBeLessThanOrEqual(400 - o.bottomHeight);
          }
        }
      }
      expect(state.coinsSpawned).toBe(Math.floor((state.steps - 1) / 60) + 1);
    });
    expect(spawned).toBe(final.coinsSpawned);
    expect(spawned).toBe(100);
  });

  it('are collected when they touch the worker, counted apart from the score', () => {
    const state = createGame(17);
    step(state, false);
    const coin = state.coinPool.find((c) => c.active)!;
    expect(coin.x).toBe(720);
    while (!coin.collected) {
      expect(state.over).toBe(false);
      pinWorker(state, coin.y - 5);
      step(state, false);
      const touched = coin.x < 130 && coin.prevX + 20 > 100;
      expect(coin.collected).toBe(touched);
    }
    expect(state.coins).toBe(1);
    expect(coin.active).toBe(true);
    expect(state.score).toBe(Math.floor(state.steps / 10) + 10 * state.obstaclesPassed);
  });

  it('are not collected when the worker is above or below them, and leave the canvas', () => {
    const state = createGame(17);
    step(state, false);
    const coin = state.coinPool.find((c) => c.active)!;
    const id = coin.id;
    while (coin.active && coin.id === id) {
      clearObstacles(state);
      pinWorker(state, coin.y >= 200 ? coin.y - 31 : coin.y + 21);
      step(state, false);
    }
    expect(state.coins).toBe(0);
    expect(state.over).toBe(false);
  });
});

describe('score, speed and level', () => {
  it('adds 1 every 10 steps', () => {
    const state = createGame(2);
    for (let i = 1; i <= 200; i++) {
      pinWorker(state, 185);
      clearObstacles(state);
      step(state, false);
      expect(state.score).toBe(Math.floor(i / 10));
    }
  });

  it('speed = 2 + 0.01 x score; level = floor(score / 10) + 1', () => {
    expect(speedForScore(0)).toBe(2);
    expect(speedForScore(100)).toBe(3);
    expect(speedForScore(1234)).toBeCloseTo(14.34, 10);
    expect([0, 9, 10, 19, 20, 999].map(levelForScore)).toEqual([1, 1, 2, 2, 3, 100]);
  });

  it('summarizes a run: tasksCompleted = score, no power-ups', () => {
    const state = playAutopilot(5, 1200, () => {});
    expect(summarize(state)).toEqual({
      score: state.score,
      coins: state.coins,
      obstaclesPassed: state.obstaclesPassed,
      steps: 1200,
      level: Math.floor(state.score / 10) + 1,
      tasksCompleted: state.score,
      powerUpsCollected: 0,
      jumps: state.jumps,
      gameTime: 20,
      crashed: false,
      endReason: null,
    });
    expect(state.score).toBe(120 + 10 * state.obstaclesPassed);
  });

  it('ends the run by itself at MAX_STEPS, without a crash', () => {
    const state = createGame(2);
    state.steps = C.MAX_STEPS - 2;
    step(state, true);
    expect(state.over).toBe(false);
    step(state, false);
    expect(state.over).toBe(true);
    expect(state.endReason).toBe('time-limit');
    expect(summarize(state).crashed).toBe(false);
  });
});

describe('pools', () => {
  it('keep their length and their slot objects for a whole five-minute run', () => {
    const state = createGame(19);
    const obstacles = [...state.obstacles];
    const coins = [...state.coinPool];
    const jumps = new Set(autopilotInputs(19, 18_000));
    let mostObstacles = 0;
    let mostCoins = 0;
    while (!state.over && state.steps < 18_000) {
      step(state, jumps.has(state.steps));
      mostObstacles = Math.max(mostObstacles, activeObstacles(state).length);
      mostCoins = Math.max(mostCoins, state.coinPool.filter((c) => c.active).length);
    }
    expect(state.steps).toBe(18_000);
    expect(state.obstacles).toHaveLength(C.OBSTACLE_POOL_SIZE);
    expect(state.coinPool).toHaveLength(C.COIN_POOL_SIZE);
    obstacles.forEach((slot, i) => expect(state.obstacles[i]).toBe(slot));
    coins.forEach((slot, i) => expect(state.coinPool[i]).toBe(slot));
    expect(mostObstacles).toBeGreaterThanOrEqual(3);
    expect(mostCoins).toBeGreaterThanOrEqual(6);
  });
});
