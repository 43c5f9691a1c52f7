import { describe, expect, it } from 'vitest';
import { autopilotInputs } from '#shared/game/autopilot.ts';
import { STEP_MS } from '#shared/game/constants.ts';
import { simulate } from '#shared/game/simulate.ts';
import { ReplayPlayback } from './replay-playback.ts';

describe('ReplayPlayback', () => {
  const seed = 424242;
  const inputs = autopilotInputs(seed, 900);
  const run = simulate(seed, inputs);
  if (!run.ok) throw new Error(run.message);

  it('plays a run to its recorded score at any speed', () => {
    for (const speed of [0.25, 1, 4]) {
      const playback = new ReplayPlayback(seed, inputs, run.steps);
      while (!playback.ended) playback.advance(16.7, speed);
      expect(playback.state.score, `${speed}x`).toBe(run.score);
      expect(playback.step).toBe(run.steps);
    }
  });

  it('runs a quarter of the steps at 0.25x and four times as many at 4x', () => {
    const slow = new ReplayPlayback(seed, inputs, run.steps);
    const fast = new ReplayPlayback(seed, inputs, run.steps);
    expect(slow.advance(1000, 0.25)).toBe(Math.round(250 / STEP_MS));
    expect(fast.advance(1000, 4)).toBe(Math.round(4000 / STEP_MS));
  });

  it('seeks back and forth to the same states as playing through, and steps one at a time', () => {
    const through = new ReplayPlayback(seed, inputs, run.steps);
    through.seek(500);
    const playedTo500 = JSON.stringify(through.state);
    const seeker = new ReplayPlayback(seed, inputs, run.steps);
    seeker.seek(800);
    seeker.seek(499);
    expect(seeker.stepOnce()).toBe(true);
    expect(JSON.stringify(seeker.state)).toBe(playedTo500);
    seeker.seek(run.steps + 100);
    expect(seeker.ended).toBe(true);
    expect(seeker.state.score).toBe(run.score);
    expect(seeker.stepOnce()).toBe(false);
  });
});
