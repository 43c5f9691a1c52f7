// Server-side cost of verifying a game run: replays an honest five-minute run (made by the
// autopilot) with the shared engine, as POST /api/game-scores does, and reports the spread.
import { autopilotInputs } from '#shared/game/autopilot.ts';
import { STEPS_PER_SECOND } from '#shared/game/constants.ts';
import { simulate } from '#shared/game/simulate.ts';

const RUN_STEPS = STEPS_PER_SECOND * 60 * 5;
const SEED = 0x5eed_2026;
const WARM_UP = 30;
const ITERATIONS = 300;
const TARGET_MS = 5;

const inputs = autopilotInputs(SEED, RUN_STEPS);
const reference = simulate(SEED, inputs);
if (!reference.ok) throw new Error(`the autopilot made an invalid run: ${reference.message}`);
if (reference.steps < RUN_STEPS) {
  throw new Error(`the autopilot crashed at step ${reference.steps}, before ${RUN_STEPS}`);
}

// The first replay in a fresh process runs before the JIT has optimised the engine.
const coldStart = performance.now();
simulate(SEED, inputs);
const coldMs = performance.now() - coldStart;

for (let i = 0; i < WARM_UP; i++) simulate(SEED, inputs);

const times: number[] = [];
for (let i = 0; i < ITERATIONS; i++) {
  const start = performance.now();
  const result = simulate(SEED, inputs);
  times.push(performance.now() - start);
  // Keeps the work observable and proves every replay is identical.
  if (!result.ok || result.score !== reference.score) throw new Error('replay diverged');
}
times.sort((a, b) => a - b);

const at = (q: number) => times[Math.min(times.length - 1, Math.floor(q * times.length))]!;
const p50 = at(0.5);
const p95 = at(0.95);
const max = times[times.length - 1]!;
const mean = times.reduce((sum, t) => sum + t, 0) / times.length;

console.log(
  `run: seed ${SEED}, ${reference.steps} steps (${(reference.steps / STEPS_PER_SECOND).toFixed(1)} s), ` +
    `${inputs.length} jumps, score ${reference.score}, coins ${reference.coins}, ` +
    `obstacles ${reference.obstaclesPassed}`,
);
console.log(`first (cold) verify: ${coldMs.toFixed(3)} ms`);
console.log(`verify x${ITERATIONS} (after ${WARM_UP} warm-up):`);
console.log(`  p50 ${p50.toFixed(3)} ms  p95 ${p95.toFixed(3)} ms  max ${max.toFixed(3)} ms`);
console.log(
  `  ${Math.round(reference.steps / (mean / 1000)).toLocaleString('en-US')} steps/s (mean)`,
);
console.log(`  target p95 <= ${TARGET_MS} ms: ${p95 <= TARGET_MS ? 'met' : 'NOT met'}`);
if (p95 > TARGET_MS) process.exitCode = 1;
