// Measuring: autocannon against one or more origins, every answer's status and latency kept, so
// slices of one measurement can be merged and summed up as one.
import autocannon from 'autocannon';
import { sleep } from '#test-support/sleep.ts';

export interface Target {
  /** Node origins; connections are spread over them in turn. */
  origins: string[];
  connections: number;
  request: autocannon.Request;
  /** Stop after this many requests instead of at the end of the time given. */
  amount?: number;
}

export interface Stats {
  responses: number;
  /** Requests that got no answer (timeouts, resets), by the error's message. */
  errors: Map<string, number>;
  seconds: number;
  latencies: number[];
  statusCounts: Map<number, number>;
}

export const emptyStats = (seconds = 0): Stats => ({
  responses: 0,
  errors: new Map(),
  seconds,
  latencies: [],
  statusCounts: new Map(),
});

export const count = <K>(map: Map<K, number>, key: K, n = 1) =>
  map.set(key, (map.get(key) ?? 0) + n);

/** One answer (or, with `error`, a request that got none) into `stats`. */
export function record(stats: Stats, status: number | Error, ms: number): void {
  if (status instanceof Error) {
    count(stats.errors, status.message);
    return;
  }
  stats.responses++;
  stats.latencies.push(ms);
  count(stats.statusCounts, status);
}

/** Several slices of one measurement as one. */
export function merge(parts: Stats[]): Stats {
  const all = emptyStats();
  for (const p of parts) {
    all.responses += p.responses;
    all.seconds += p.seconds;
    for (const l of p.latencies) all.latencies.push(l);
    for (const [k, n] of p.errors) count(all.errors, k, n);
    for (const [k, n] of p.statusCounts) count(all.statusCounts, k, n);
  }
  return all;
}

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

export interface Summary {
  rps: number;
  p50: number;
  p99: number;
  /** Answers other than 2xx, and requests that got no answer. */
  errors: number;
  /** Each status and error with its count, e.g. `201x900 422x3`. */
  statuses: string;
}

export function summarise(stats: Stats): Summary {
  const sorted = [...stats.latencies].sort((a, b) => a - b);
  const ok = [...stats.statusCounts]
    .filter(([s]) => s >= 200 && s < 300)
    .reduce((n, [, c]) => n + c, 0);
  const unanswered = [...stats.errors.values()].reduce((n, c) => n + c, 0);
  return {
    rps: stats.responses / stats.seconds,
    p50: percentile(sorted, 50),
    p99: percentile(sorted, 99),
    errors: unanswered + (stats.responses - ok),
    statuses: [
      ...[...stats.statusCounts].map(([s, c]) => `${s}x${c}`),
      ...[...stats.errors].map(([m, c]) => `${m}x${c}`),
    ].join(' '),
  };
}

/** Runs every target at once for `seconds` (or its `amount`); one Stats per target. */
export async function measure(targets: Target[], seconds: number): Promise<Stats[]> {
  const started = performance.now();
  const runs = targets.map((target) => {
    const stats = emptyStats(seconds);
    let lastAnswerAt = started;
    const done = new Promise<void>((resolve, reject) => {
      const instance = autocannon(
        {
          // autocannon spreads its connections over several URLs; its types only name one.
          url: target.origins as unknown as string,
          connections: target.connections,
          duration: seconds,
          ...(target.amount ? { amount: target.amount } : {}),
          requests: [target.request],
          timeout: 10,
        },
        (error) => (error ? reject(error) : resolve()),
      );
      instance.on('response', (_client: unknown, status: number, _bytes: number, ms: number) => {
        lastAnswerAt = performance.now();
        record(stats, status, ms);
      });
      instance.on('reqError', (error: Error) => record(stats, error, 0));
    });
    // autocannon ends a run with a given amount at its next one-second tick: such a run lasted
    // until its last answer.
    const answeredIn = () => (lastAnswerAt - started) / 1000;
    return { stats, done, answeredIn };
  });
  await Promise.all(runs.map((r) => r.done));
  const elapsed = (performance.now() - started) / 1000;
  for (const [i, r] of runs.entries())
    r.stats.seconds = targets[i]!.amount ? r.answeredIn() : Math.max(seconds, elapsed - 0.05);
  return runs.map((r) => r.stats);
}

/**
 * Waits until each URL answers quickly again: requests a finished measurement left queued
 * (connections are closed, the work is not) must not slow the next one.
 */
export async function settle(urls: string[]): Promise<void> {
  const deadline = Date.now() + 20_000;
  for (const url of urls) {
    let quick = 0;
    while (quick < 3 && Date.now() < deadline) {
      const started = performance.now();
      await fetch(url).then(
        (r) => r.arrayBuffer(),
        () => undefined,
      );
      quick = performance.now() - started < 10 ? quick + 1 : 0;
      await sleep(50);
    }
  }
}
