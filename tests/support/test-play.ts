import { expect } from 'vitest';
import { STEP_MS } from '#shared/game/constants.ts';
import { playHonestly, scoreBody as honestScoreBody, type HonestRun } from './honest-run.ts';
import type { TestClient } from './test-app.ts';

export type PlayedRun = HonestRun;

/** Asks for a run and plays it honestly with the autopilot; the clock is not moved. */
export async function play(client: TestClient, targetSteps = 600): Promise<PlayedRun> {
  const res = await client.request('POST', '/api/game-runs');
  expect(res.statusCode).toBe(201);
  const { runId, seed } = res.json<{ runId: string; seed: number }>();
  return playHonestly(runId, seed, targetSteps);
}

/** Whole milliseconds (the app's clock reads Date.now()) a run takes to play. */
export const realTimeMs = (run: PlayedRun) => Math.ceil(run.result.steps * STEP_MS);

export function scoreBody(run: PlayedRun, playerName: string, overrides: Record<string, unknown> = {}) {
  return { ...honestScoreBody(run, playerName), ...overrides };
}
