import { autopilotInputs } from '#shared/game/autopilot.ts';
import { simulate } from '#shared/game/simulate.ts';

const WARM_UP_SEED = 0x9e3779b9;
const WARM_UP_STEPS = 1800;
const WARM_UP_ROUNDS = 3;

let warmed = false;

/**
 * The first replays in a fresh process run unoptimised (20-40 ms for a long run); doing a few
 * at start-up means the first player's submission is checked at full speed.
 */
export function warmUpReplay(): void {
  if (warmed) return;
  warmed = true;
  const inputs = autopilotInputs(WARM_UP_SEED, WARM_UP_STEPS);
  for (let i = 0; i < WARM_UP_ROUNDS; i++) simulate(WARM_UP_SEED, inputs);
}
