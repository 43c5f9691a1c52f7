import { describe, expect, it } from 'vitest';
import type { ProgressBody } from '#shared/api/game.ts';
import { ApiError } from '#client/lib/api-client.ts';
import { ProgressReporter } from './progress-reporter.ts';
import { sleep } from '#test-support/sleep.ts';

function deferred<T>() {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

describe('ProgressReporter', () => {
  it('reports once a second, one at a time, with the jumps since the acknowledged step', async () => {
    const state = { step: 0, inputs: [] as number[] };
    const sent: { body: ProgressBody; answer: ReturnType<typeof deferred<{ step: number }>> }[] =
      [];
    const reporter = new ProgressReporter({
      send: (body) => {
        const answer = deferred<{ step: number }>();
        sent.push({ body, answer });
        return answer.promise;
      },
      read: () => state,
      onRefused: () => {},
    });
    state.step = 60;
    state.inputs = [10, 40];
    reporter.tick(1000);
    expect(sent.map((s) => s.body)).toEqual([{ step: 60, jumps: [10, 40] }]);
    // Slow answer: no second request while the first is out, however late it gets.
    state.step = 180;
    state.inputs = [10, 40, 90, 150];
    reporter.tick(2000);
    reporter.tick(3000);
    expect(sent).toHaveLength(1);
    sent[0]!.answer.resolve({ step: 60 });
    await Promise.resolve();
    await Promise.resolve();
    reporter.tick(3001);
    expect(sent[1]!.body).toEqual({ step: 180, jumps: [90, 150] });
    // Lost on the network: the next report covers the same jumps again.
    sent[1]!.answer.reject(new TypeError('Failed to fetch'));
    await sleep(0);
    state.step = 240;
    state.inputs = [10, 40, 90, 150, 200];
    reporter.tick(4001);
    expect(sent[2]!.body).toEqual({ step: 240, jumps: [90, 150, 200] });
    sent[2]!.answer.resolve({ step: 240 });
    // Game over: the final report carries the last steps.
    state.step = 260;
    state.inputs = [10, 40, 90, 150, 200, 250];
    const finished = reporter.finish();
    await sleep(0);
    expect(sent[3]!.body).toEqual({ step: 260, jumps: [250] });
    sent[3]!.answer.resolve({ step: 260 });
    expect(await finished).toEqual({ refused: false });
  });

  it('ends the round once when the server refuses a report', async () => {
    const refusals: string[] = [];
    const body = JSON.stringify({ message: 'This round is unranked: slow.', code: 'RUN_BEHIND' });
    const reporter = new ProgressReporter({
      send: () => Promise.reject(new ApiError(422, body, 'Unprocessable Entity')),
      read: () => ({ step: 60, inputs: [] }),
      onRefused: (message) => refusals.push(message),
    });
    reporter.tick(1000);
    await sleep(0);
    reporter.tick(5000);
    expect(refusals).toEqual(['This round is unranked: slow.']);
    expect(await reporter.finish()).toEqual({
      refused: true,
      message: 'This round is unranked: slow.',
    });
  });
});
