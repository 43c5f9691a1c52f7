import { expect } from 'vitest';
import { progressPath } from '#shared/api/game.ts';
import { gamePaths } from '#shared/api/paths.ts';
import {
  playableAfterMs,
  playHonestly,
  sendProgressReports,
  type HonestRun,
} from './honest-run.ts';
import type { Reply, TestClient } from './test-client.ts';

export interface ReportedRun {
  run: HonestRun;
  /** The client's reading of the clock when the run was issued. */
  issuedAt: number;
  /** From when its score may be sent: the round has played out in real time. */
  playableAt: number;
  /** Its progress reports, sent in the background on the real clock. */
  reporting: Promise<void>;
}

export interface ReportedRunOptions {
  /** The node (origin) that issues the run. */
  node: string;
  targetSteps: number;
  /** Played on past `targetSteps` until the round collects a coin (roundWithCoins). */
  withCoins?: boolean;
  /** The node the nth progress report goes to; by default the one that issued the run. */
  reportTo?: (index: number) => string;
  /** Sends one request; by default as it is (a caller may tell a lost answer from a refusal). */
  send?: (request: () => Promise<Reply>) => Promise<Reply>;
}

/**
 * A run of a browser against real nodes, played as a person would: issued by `node`, played by
 * the autopilot, and its progress reported once a second while the round lasts.
 */
export async function playReportedRun(
  client: TestClient,
  {
    node,
    targetSteps,
    withCoins,
    reportTo = () => node,
    send = (request) => request(),
  }: ReportedRunOptions,
): Promise<ReportedRun> {
  const issued = await send(() => client.request('POST', gamePaths.runs, { node }));
  expect(issued.statusCode).toBe(201);
  const issuedAt = Date.now();
  const { runId, seed } = issued.json<{ runId: string; seed: number }>();
  const run = playHonestly(runId, seed, targetSteps, { withCoins });
  const reporting = sendProgressReports(run, issuedAt, async (body, index) => {
    const res = await send(() =>
      client.request('POST', progressPath(runId), { node: reportTo(index), body }),
    );
    return res.statusCode;
  });
  return { run, issuedAt, playableAt: issuedAt + playableAfterMs(run), reporting };
}
