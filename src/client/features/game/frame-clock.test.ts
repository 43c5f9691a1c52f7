import { describe, expect, it } from 'vitest';
import { STEP_MS } from '#shared/game/constants.ts';
import { FrameClock, MAX_FRAME_MS, MAX_STEPS_PER_FRAME } from './frame-clock.ts';

/** Steps run over `seconds` of frames at `hz`, as a display would deliver them. */
function stepsOver(hz: number, seconds: number): number {
  const clock = new FrameClock();
  let steps = 0;
  for (let frame = 0; frame <= hz * seconds; frame++) {
    steps += clock.stepsFor(clock.elapsed((frame * 1000) / hz));
  }
  return steps;
}

describe('FrameClock', () => {
  it('runs 60 steps per second on 30, 60, 120 and 144 Hz screens', () => {
    for (const hz of [30, 60, 120, 144]) {
      expect(Math.abs(stepsOver(hz, 10) - 600), `${hz} Hz`).toBeLessThanOrEqual(1);
    }
  });

  it('counts no time for the first frame and after a pause', () => {
    const clock = new FrameClock();
    expect(clock.elapsed(5000)).toBe(0);
    expect(clock.elapsed(5000 + STEP_MS)).toBeCloseTo(STEP_MS);
    clock.pause();
    expect(clock.elapsed(60_000)).toBe(0);
  });

  it('caps a long frame and the steps it may run, dropping the rest', () => {
    const clock = new FrameClock();
    clock.elapsed(0);
    const long = clock.elapsed(10_000);
    expect(long).toBe(MAX_FRAME_MS);
    expect(clock.stepsFor(long)).toBe(MAX_STEPS_PER_FRAME);
    // What is left over is less than one step: no burst of catch-up steps later.
    expect(clock.alpha).toBeGreaterThanOrEqual(0);
    expect(clock.alpha).toBeLessThan(1);
    expect(clock.stepsFor(0)).toBe(0);
  });

  it('reports the fraction of a step for interpolation', () => {
    const clock = new FrameClock();
    expect(clock.stepsFor(STEP_MS * 2.25)).toBe(2);
    expect(clock.alpha).toBeCloseTo(0.25);
    clock.reset();
    expect(clock.alpha).toBe(0);
  });
});
