import { autopilot, autopilotInputs } from '#shared/game/autopilot.ts';
import { MAX_STEPS, STEP_MS } from '#shared/game/constants.ts';
import { createGame, step } from '#shared/game/engine.ts';
import {
  checkReportTiming,
  REPORT_INTERVAL_MS,
  ROUND_START_DELAY_MS,
  type PacingRefusal,
} from '#shared/game/pacing.ts';
import { createPrng, nextUint32, type Prng } from '#shared/game/prng.ts';
import {
  machineSigns,
  RunStatisticsRecorder,
  type RunStatistics,
} from '#shared/game/run-statistics.ts';
import { simulate } from '#shared/game/simulate.ts';

// The corpus of machine players issue 21 asks for: what the run statistics make of each, and
// whether the pacing lets it through. No recorded human play exists here, so there is no human
// row: the table says which machines stand out, not how far a person stands from them.

export interface MachinePlayer {
  name: string;
  /** Jump log for a run of `seed` aiming at `targetSteps`. */
  play(seed: number, targetSteps: number): number[];
  /** Game steps played per real millisecond, as a function of real time since the start. */
  clock: (realMs: number) => number;
  /** Network delay of the nth progress report, in milliseconds. */
  delay?: (n: number, prng: Prng) => number;
}

const realTime = (ms: number) => ms / STEP_MS;

function uniform(prng: Prng): number {
  return nextUint32(prng) / 4294967296;
}

/** |N(0, 1)| by Box-Muller. */
function halfNormal(prng: Prng): number {
  const u = Math.max(uniform(prng), 1e-12);
  return Math.abs(Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * uniform(prng)));
}

/**
 * The autopilot with human-like timing noise: each jump it decides on lands late by a random
 * |N(0, noiseMs)| plus where in the step the decision fell; it waits for that jump before
 * deciding again.
 */
export function noisyAutopilotInputs(seed: number, targetSteps: number, noiseMs: number): number[] {
  const limit = Math.min(targetSteps, MAX_STEPS);
  const state = createGame(seed);
  const wantsJump = autopilot(seed);
  const prng = createPrng((seed ^ 0x9e3779b9) >>> 0);
  const inputs: number[] = [];
  let pendingAt = -1;
  while (!state.over && state.steps < limit) {
    if (pendingAt < 0 && wantsJump(state)) {
      pendingAt = state.steps + Math.floor(uniform(prng) + (halfNormal(prng) * noiseMs) / STEP_MS);
    }
    const jump = pendingAt === state.steps;
    if (jump) {
      inputs.push(state.steps);
      pendingAt = -1;
    }
    step(state, jump);
  }
  return inputs;
}

/** Jumps every `period` steps, whatever is on screen, until the run ends. */
export function cadenceInputs(seed: number, targetSteps: number, period: number): number[] {
  const state = createGame(seed);
  const inputs: number[] = [];
  while (!state.over && state.steps < Math.min(targetSteps, MAX_STEPS)) {
    const jump = state.steps % period === 0;
    if (jump) inputs.push(state.steps);
    step(state, jump);
  }
  return inputs;
}

export const machinePlayers: MachinePlayer[] = [
  { name: 'autopilot', play: autopilotInputs, clock: realTime },
  ...[10, 20, 40].map((noiseMs) => ({
    name: `autopilot + ${noiseMs} ms noise`,
    play: (seed: number, steps: number) => noisyAutopilotInputs(seed, steps, noiseMs),
    clock: realTime,
  })),
  {
    name: 'autopilot + 40 ms noise, reports delayed 0-4 s',
    play: (seed, steps) => noisyAutopilotInputs(seed, steps, 40),
    clock: realTime,
    delay: (_n, prng) => uniform(prng) * 4000,
  },
  {
    name: 'fixed cadence (every 26 steps)',
    play: (s, n) => cadenceInputs(s, n, 26),
    clock: realTime,
  },
  {
    name: 'autopilot, game slowed to 80 %',
    play: autopilotInputs,
    clock: (ms) => realTime(ms) * 0.8,
  },
  {
    name: 'autopilot, paused 8 s at 20 s',
    play: autopilotInputs,
    clock: (ms) => realTime(ms < 20_000 ? ms : Math.max(20_000, ms - 8000)),
  },
  {
    name: 'autopilot, game sped up to 110 %',
    play: autopilotInputs,
    clock: (ms) => realTime(ms) * 1.1,
  },
];

export interface PacingVerdict {
  ranked: boolean;
  refusal: PacingRefusal | null;
  reports: number;
}

/**
 * Plays the server's side of a run's progress reports: the client reports once a second of its
 * own real time (one report in flight at a time, as the client does), each report arriving after
 * its network delay and checked against the server's clock; then the final report at game over.
 */
export function pacingVerdict(player: MachinePlayer, steps: number, seed: number): PacingVerdict {
  const prng = createPrng(seed);
  const startedAt = ROUND_START_DELAY_MS;
  const stepAt = (realMs: number) => Math.min(steps, Math.floor(player.clock(realMs)));
  let lastReportAt: number | null = null;
  let sendAt = REPORT_INTERVAL_MS;
  let n = 0;
  for (;;) {
    const reached = stepAt(sendAt);
    const final = reached >= steps;
    const arrival = sendAt + (player.delay?.(n, prng) ?? 30);
    const refusal = checkReportTiming({
      startedAt,
      lastReportAt,
      now: startedAt + arrival,
      step: reached,
    });
    n += 1;
    if (refusal) return { ranked: false, refusal, reports: n };
    lastReportAt = startedAt + arrival;
    if (final) break;
    sendAt = Math.max(sendAt + REPORT_INTERVAL_MS, arrival);
    // The last report goes out at game over rather than a full interval later.
    if (stepAt(sendAt) >= steps) {
      let end = sendAt - REPORT_INTERVAL_MS;
      while (stepAt(end) < steps) end += STEP_MS;
      sendAt = Math.max(end, arrival);
    }
  }
  // The final report carried the last step: nothing of the run went unreported.
  return { ranked: true, refusal: null, reports: n };
}

export interface CorpusRow {
  player: string;
  steps: number;
  score: number;
  stats: RunStatistics;
  signs: string[];
  pacing: PacingVerdict;
}

/** Every machine player on each seed, aiming at `targetSteps`. */
export function playCorpus(seeds: readonly number[], targetSteps: number): CorpusRow[] {
  const rows: CorpusRow[] = [];
  for (const player of machinePlayers) {
    for (const seed of seeds) {
      const inputs = player.play(seed, targetSteps);
      const recorder = new RunStatisticsRecorder();
      const result = simulate(seed, inputs, {}, recorder);
      if (!result.ok) throw new Error(`${player.name} made an invalid run: ${result.message}`);
      const stats = recorder.result();
      rows.push({
        player: player.name,
        steps: result.steps,
        score: result.score,
        stats,
        signs: machineSigns(stats).map((s) => s.key),
        pacing: pacingVerdict(player, result.steps, seed),
      });
    }
  }
  return rows;
}
