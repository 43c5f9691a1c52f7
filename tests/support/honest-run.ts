import type { SubmitScoreBody } from '#shared/api/game.ts';
import { autopilotInputs } from '#shared/game/autopilot.ts';
import { STEP_MS } from '#shared/game/constants.ts';
import { simulate, type ValidRun } from '#shared/game/simulate.ts';
import { REAL_TIME_GRACE_MS } from '#server/game/service.ts';

export interface HonestRun {
  runId: string;
  seed: number;
  inputs: number[];
  result: ValidRun;
}

/**
 * The autopilot plays the run the server handed out, as a player would: the jump log and the
 * figures the replay will agree with. About 420 target steps collect a coin or more.
 */
export function playHonestly(runId: string, seed: number, targetSteps: number): HonestRun {
  const inputs = autopilotInputs(seed, targetSteps);
  const result = simulate(seed, inputs);
  if (!result.ok) throw new Error(`autopilot run did not replay: ${result.message}`);
  return { runId, seed, inputs, result };
}

/** How long after its issue the server accepts this run as played in real time. */
export function playableAfterMs(run: HonestRun): number {
  return Math.max(0, Math.ceil(run.result.steps * STEP_MS) - REAL_TIME_GRACE_MS + 50);
}

export function scoreBody(run: HonestRun, playerName: string): SubmitScoreBody {
  return {
    playerName,
    score: run.result.score,
    level: run.result.level,
    tasksCompleted: run.result.tasksCompleted,
    powerUpsCollected: run.result.powerUpsCollected,
    gameTime: run.result.gameTime,
    runId: run.runId,
    inputs: run.inputs,
  };
}
