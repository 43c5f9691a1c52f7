import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { autopilotInputs } from './autopilot.ts';
import { STEP_MS } from './constants.ts';
import { createGame, step, type GameState } from './engine.ts';
import { simulate } from './simulate.ts';

const seedArb = fc.integer({ min: 0, max: 0xffffffff });

/**
 * A jump log for a seed: the autopilot's log for a short run with some jumps dropped and some
 * added, so runs last from a few steps to a couple of thousand and end in every way.
 */
const runArb = fc
  .record({
    seed: seedArb,
    length: fc.integer({ min: 0, max: 2400 }),
    drop: fc.array(fc.nat(), { maxLength: 2 }),
    add: fc.array(fc.nat(), { maxLength: 3 }),
  })
  .map(({ seed, length, drop, add }) => {
    const base = autopilotInputs(seed, length);
    const dropped = new Set(drop.map((d) => (base.length ? base[d % base.length] : -1)));
    const added = add.map((a) => a % (length + 60));
    const inputs = [...new Set([...base.filter((s) => !dropped.has(s)), ...added])].sort(
      (a, b) => a - b,
    );
    return { seed, inputs };
  });

/** Only the jumps the engine would apply: those up to the step in which the run ends. */
function applicable(seed: number, inputs: readonly number[]): number[] {
  const result = simulate(seed, inputs);
  if (result.ok) return [...inputs];
  const jumps = new Set(inputs);
  const state = createGame(seed);
  while (!state.over) step(state, jumps.has(state.steps));
  return inputs.filter((s) => s < state.steps);
}

/** Runs the game the way a browser does: whole steps per display frame, jumps by step number. */
function playInFrames(
  seed: number,
  inputs: readonly number[],
  stepsPerFrame: (frame: number) => number,
): GameState {
  const jumps = new Set(inputs);
  const state = createGame(seed);
  for (let frame = 0; !state.over; frame++) {
    for (let n = stepsPerFrame(frame); n > 0 && !state.over; n--) {
      step(state, jumps.has(state.steps));
    }
  }
  return state;
}

/** A fixed-timestep loop driven by a display's frame times, with a cap on steps per frame. */
function accumulatorFrames(refreshHz: number, jitter: readonly number[], cap = 8) {
  let accumulator = 0;
  return (frame: number): number => {
    const frameMs = 1000 / refreshHz + (jitter[frame % Math.max(1, jitter.length)] ?? 0);
    accumulator += frameMs;
    let steps = 0;
    while (accumulator >= STEP_MS && steps < cap) {
      accumulator -= STEP_MS;
      steps += 1;
    }
    if (steps === cap) accumulator = 0;
    return steps;
  };
}

describe('replay (property)', () => {
  it('gives the same result every time for the same seed and jump log', () => {
    fc.assert(
      fc.property(runArb, ({ seed, inputs }) => {
        const first = simulate(seed, inputs);
        const second = simulate(seed, [...inputs]);
        expect(second).toEqual(first);
      }),
      { numRuns: 60 },
    );
  });

  it('accepts every log of applicable jumps and matches the engine stepped one by one', () => {
    fc.assert(
      fc.property(runArb, ({ seed, inputs }) => {
        const log = applicable(seed, inputs);
        const result = simulate(seed, log);
        expect(result.ok).toBe(true);
        const state = playInFrames(seed, log, () => 1);
        expect(result).toMatchObject({
          score: state.score,
          coins: state.coins,
          steps: state.steps,
        });
      }),
      { numRuns: 60 },
    );
  });

  it('reaches the identical state however the steps are grouped into frames', () => {
    fc.assert(
      fc.property(
        runArb,
        fc.array(fc.integer({ min: 0, max: 8 }), { minLength: 1, maxLength: 16 }),
        ({ seed, inputs }, chunks) => {
          const log = applicable(seed, inputs);
          const oneByOne = playInFrames(seed, log, () => 1);
          const chunked = playInFrames(seed, log, (frame) => chunks[frame % chunks.length]! || 1);
          expect(chunked).toEqual(oneByOne);
        },
      ),
      { numRuns: 60 },
    );
  });

  it('plays the same on 30, 60, 120 and 144 Hz displays with uneven frame times', () => {
    fc.assert(
      fc.property(
        runArb,
        fc.array(fc.double({ min: -2, max: 40, noNaN: true }), { maxLength: 12 }),
        ({ seed, inputs }, jitter) => {
          const log = applicable(seed, inputs);
          const reference = playInFrames(seed, log, () => 1);
          for (const hz of [30, 60, 120, 144]) {
            expect(playInFrames(seed, log, accumulatorFrames(hz, jitter))).toEqual(reference);
          }
        },
      ),
      { numRuns: 30 },
    );
  });
});
