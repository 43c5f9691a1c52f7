import { describe, expect, it } from 'vitest';
import { gamePaths } from '#shared/api/paths.ts';
import { suiteApp } from '#test-support/test-app.ts';
import { TestClient } from '#test-support/test-client.ts';
import { databaseKinds } from '#test-support/test-database.ts';
import { WIDE_NETWORK_SHARE } from './client-network.ts';

/**
 * A limit counted per network counts an IPv6 caller at its /64 and at the /64's /48, the /48 at
 * `WIDE_NETWORK_SHARE` times the /64's allowance (issue 40, docs/decisions/018): the /64s of one
 * /48 cost nothing to walk. Shown here on the runs visitors start (40 a minute per network);
 * logins are in auth/failed-sign-ins.test.ts, streams in live/events.test.ts, and every other
 * caller of enforceRateLimit with a `net:` key counts the same way (security/rate-limit.test.ts).
 */
describe.each(databaseKinds)('per-network limits at two widths on %s', (kind) => {
  const t = suiteApp(kind, { trustProxy: 1 });
  const RUNS_PER_MINUTE = 40;

  const startRun = (address: string) =>
    TestClient.inject(t.app).request('POST', gamePaths.runs, {
      headers: { 'x-forwarded-for': address },
    });

  it('starts a few /64s’ worth of runs from one /48, then 429, and strangers still start', async () => {
    const allowed = RUNS_PER_MINUTE * WIDE_NETWORK_SHARE;
    const statuses: number[] = [];
    // Each /64 of 2001:db8:4800::/48 starts three runs: far from its own limit of 40.
    for (let i = 0; i <= allowed; i++) {
      const res = await startRun(`2001:db8:4800:${Math.floor(i / 3).toString(16)}::1`);
      statuses.push(res.statusCode);
    }
    expect(statuses.slice(0, allowed).every((s) => s === 201)).toBe(true);
    expect(statuses.at(-1)).toBe(429);
    // Another /48, and an IPv4 address, keep their own allowances.
    expect((await startRun('2001:db8:4801:1::1')).statusCode).toBe(201);
    expect((await startRun('203.0.113.48')).statusCode).toBe(201);
  });
});
