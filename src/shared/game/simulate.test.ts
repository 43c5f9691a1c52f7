import { describe, expect, it } from 'vitest';
import { autopilotInputs } from './autopilot.ts';
import { MAX_INPUTS, MAX_STEPS } from './constants.ts';
import { createGame, step, summarize } from './engine.ts';
import { simulate, type SimulationResult } from './simulate.ts';

function reason(result: SimulationResult): string {
  return result.ok ? 'ok' : result.reason;
}

describe('simulate', () => {
  it('replays a run with no jumps: the worker falls to the floor in 25 steps', () => {
    expect(simulate(99, [])).toEqual({
      ok: true,
      score: 2,
      coins: 0,
      obstaclesPassed: 0,
      steps: 25,
      level: 1,
      tasksCompleted: 2,
      powerUpsCollected: 0,
      jumps: 0,
      gameTime: 0,
      crashed: true,
      endReason: 'floor',
    });
  });

  it('gives what stepping the engine by hand gives', () => {
    const inputs = autopilotInputs(314, 2400);
    const jumps = new Set(inputs);
    const state = createGame(314);
    while (!state.over) step(state, jumps.has(state.steps));
    const result = simulate(314, inputs);
    expect(result).toEqual({ ok: true, ...summarize(state) });
    expect(result.ok && result.steps).toBeGreaterThan(2400);
    expect(result.ok && result.jumps).toBe(inputs.length);
  });

  it('replays an autopilot run of five minutes that crashes soon after the jumps stop', () => {
    const inputs = autopilotInputs(2026, 18_000);
    const result = simulate(2026, inputs);
    if (!result.ok) throw new Error(result.message);
    expect(result.steps).toBeGreaterThanOrEqual(18_000);
    expect(result.steps).toBeLessThan(18_000 + 120);
    expect(result.crashed).toBe(true);
    expect(result.obstaclesPassed).toBeGreaterThanOrEqual(148);
    expect(result.score).toBe(Math.floor(result.steps / 10) + 10 * result.obstaclesPassed);
    expect(result.coins).toBeGreaterThan(50);
    expect(result.level).toBe(Math.floor(result.score / 10) + 1);
  });

  it('stops a run that never crashes at MAX_STEPS, reporting no crash', () => {
    const inputs = autopilotInputs(7, MAX_STEPS);
    const result = simulate(7, inputs);
    if (!result.ok) throw new Error(result.message);
    expect(result).toMatchObject({ steps: MAX_STEPS, crashed: false, endReason: 'time-limit' });
    expect(result.gameTime).toBe(900);
  });

  it('accepts a jump in the step that would have crashed, since it still happens', () => {
    const crashStep = 24;
    expect(simulate(99, [])).toMatchObject({ ok: true, steps: crashStep + 1 });
    expect(reason(simulate(99, [crashStep]))).toBe('ok');
  });

  // Stored runs are verified later by whatever engine is deployed then, and browsers replay the
  // same steps: this pins one run to the last bit, floating-point drift included.
  it('reproduces a recorded run exactly', () => {
    const seed = 0xc0ffee;
    const inputs = [
      0, 1, 2, 3, 4, 5, 6, 7, 30, 56, 82, 107, 133, 158, 184, 210, 235, 261, 287, 314, 340, 366,
      391, 427, 452, 478, 504, 531, 556, 582, 607, 608, 609, 610, 611, 612, 636, 662, 687, 714, 739,
      765, 791, 823, 849, 875, 900, 918, 919, 920, 921, 922, 923, 924, 925, 926, 950, 976, 1001,
      1028, 1053, 1079, 1105, 1130, 1161, 1187, 1213, 1239, 1246, 1269, 1295, 1320, 1346, 1375,
      1401, 1426, 1452, 1485,
    ];
    expect(simulate(seed, inputs)).toEqual({
      ok: true,
      score: 272,
      coins: 19,
      obstaclesPassed: 12,
      steps: 1522,
      level: 28,
      tasksCompleted: 272,
      powerUpsCollected: 0,
      jumps: 78,
      gameTime: 25,
      crashed: true,
      endReason: 'floor',
    });
    const jumps = new Set(inputs);
    const state = createGame(seed);
    while (!state.over) step(state, jumps.has(state.steps));
    expect(state.worker.y).toBe(383.39999999999844);
    expect(state.worker.velocity).toBe(14.199999999999994);
    expect(state.speed).toBe(4.720000000000001);
    expect(state.prng.state).toBe(764790194);
    const live = state.obstacles.filter((o) => o.active);
    expect(live.map((o) => [o.x, o.topHeight, o.type])).toEqual([[324.000000000002, 195, 'door']]);
  });

  describe('refuses', () => {
    it('a seed that is not an unsigned 32-bit integer', () => {
      for (const seed of [-1, 0.5, 2 ** 32, Number.NaN]) {
        expect(reason(simulate(seed, []))).toBe('invalid-seed');
      }
    });

    it('inputs that are not an array of integers', () => {
      expect(reason(simulate(1, 'nope' as unknown as number[]))).toBe('not-an-array');
      for (const bad of [1.5, Number.NaN, Infinity, '3', null, 2 ** 60]) {
        expect(reason(simulate(1, [0, bad as number]))).toBe('not-an-integer');
      }
    });

    it('negative, repeated or decreasing step numbers', () => {
      expect(reason(simulate(1, [-1]))).toBe('negative');
      expect(reason(simulate(1, [3, 3]))).toBe('not-increasing');
      expect(reason(simulate(1, [5, 4]))).toBe('not-increasing');
    });

    it('jumps after the run ended', () => {
      const result = simulate(99, [25]);
      expect(reason(result)).toBe('after-end');
      expect(!result.ok && result.message).toMatch(/step 25 .*ended at step 24/);
      const honest = autopilotInputs(5, 600);
      expect(reason(simulate(5, [...honest, 5000]))).toBe('after-end');
    });

    it('more than MAX_INPUTS jumps, or more than a stricter limit', () => {
      const many = Array.from({ length: MAX_INPUTS + 1 }, (_, i) => i);
      expect(reason(simulate(1, many))).toBe('too-many-inputs');
      expect(reason(simulate(1, many.slice(0, MAX_INPUTS)))).not.toBe('too-many-inputs');
      expect(reason(simulate(1, [1, 2, 3], { maxInputs: 2 }))).toBe('too-many-inputs');
      expect(reason(simulate(1, [1, 2, 3], { maxInputs: 3 }))).toBe('ok');
    });

    it('a jump at or beyond MAX_STEPS, and a run longer than a stricter step limit', () => {
      expect(reason(simulate(1, [MAX_STEPS]))).toBe('too-long');
      const inputs = autopilotInputs(12, 1200);
      const result = simulate(12, inputs);
      if (!result.ok) throw new Error(result.message);
      expect(reason(simulate(12, inputs, { maxSteps: result.steps }))).toBe('ok');
      expect(reason(simulate(12, inputs, { maxSteps: result.steps - 1 }))).toBe('too-long');
      expect(reason(simulate(12, inputs, { maxSteps: 600 }))).toBe('too-long');
    });
  });

  it('treats malformed limits as a programming error', () => {
    expect(() => simulate(1, [], { maxSteps: -1 })).toThrow(RangeError);
    expect(() => simulate(1, [], { maxInputs: 1.5 })).toThrow(RangeError);
  });
});
