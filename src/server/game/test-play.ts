import { expect } from 'vitest';
import { autopilotInputs } from '#shared/game/autopilot.ts';
import { STEP_MS } from '#shared/game/constants.ts';
import { simulate, type ValidRun } from '#shared/game/simulate.ts';
import type { TestClient } from '../test-support/test-app.ts';

export interface PlayedRun {
  runId: string;
  seed: number;
  inputs: number[];
  result: ValidRun;
}

/** Asks for a run and plays it honestly with the autopilot; the clock is not moved. */
export async function play(client: TestClient, targetSteps = 600): Promise<PlayedRun> {
  const res = await client.request('POST', '/api/game-runs');
  expect(res.statusCode).toBe(201);
  const { runId, seed } = res.json<{ runId: string; seed: number }>();
  const inputs = autopilotInputs(seed, targetSteps);
  const result = simulate(seed, inputs);
  if (!result.ok) throw new Error(result.message);
  return { runId, seed, inputs, result };
}

/** Whole milliseconds (the app's clock reads Date.now()) a run takes to play. */
export const realTimeMs = (run: PlayedRun) => Math.ceil(run.result.steps * STEP_MS);

export function scoreBody(
  run: PlayedRun,
  playerName: string,
  overrides: Record<string, unknown> = {},
) {
  return {
    playerName,
    score: run.result.score,
    level: run.result.level,
    tasksCompleted: run.result.tasksCompleted,
    powerUpsCollected: run.result.powerUpsCollected,
    gameTime: run.result.gameTime,
    runId: run.runId,
    inputs: run.inputs,
    ...overrides,
  };
}
