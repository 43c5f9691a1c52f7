import { autopilotInputs } from '#shared/game/autopilot.ts';
import { simulate, type ValidRun } from '#shared/game/simulate.ts';

/**
 * The autopilot's jump log for `seed`, from `targetSteps` on and longer until the round collects
 * a coin: about one seed in 270 collects none in 420 steps (11 of 3,000 random seeds), and a test
 * that credits a run's coins would fail on it now and then.
 */
export function roundWithCoins(
  seed: number,
  targetSteps = 420,
): { inputs: number[]; result: ValidRun } {
  for (let target = targetSteps; target <= 3000; target += 180) {
    const inputs = autopilotInputs(seed, target);
    const result = simulate(seed, inputs);
    if (!result.ok) throw new Error(`the autopilot's run does not replay: ${result.message}`);
    if (result.coins > 0) return { inputs, result };
  }
  throw new Error(`no coin within 3000 steps of seed ${seed}`);
}
