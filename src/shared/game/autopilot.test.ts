import { describe, expect, it } from 'vitest';
import { autopilotInputs } from './autopilot.ts';
import { simulate } from './simulate.ts';

describe('autopilotInputs', () => {
  it('makes honest five-minute runs for any seed, ending in a crash soon after', () => {
    for (const seed of [0, 1, 0xffffffff, 0x5eed2026, 424242]) {
      const inputs = autopilotInputs(seed, 18_000);
      const result = simulate(seed, inputs);
      if (!result.ok) throw new Error(result.message);
      expect(result.steps).toBeGreaterThanOrEqual(18_000);
      expect(result.steps).toBeLessThan(18_000 + 120);
      expect(result.crashed).toBe(true);
      expect(inputs.every((s) => s < 18_000)).toBe(true);
    }
  });

  it('makes runs of a chosen length', () => {
    for (const length of [0, 1, 300, 1000]) {
      const result = simulate(77, autopilotInputs(77, length));
      expect(result.ok && result.steps).toBeGreaterThanOrEqual(Math.max(length, 25));
      expect(result.ok && result.steps).toBeLessThan(length + 120);
    }
  });

  it('is deterministic', () => {
    expect(autopilotInputs(9, 3000)).toEqual(autopilotInputs(9, 3000));
    expect(autopilotInputs(9, 3000)).not.toEqual(autopilotInputs(10, 3000));
  });
});
