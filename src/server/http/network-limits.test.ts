import { describe, expect, it } from 'vitest';
import { authPaths, gamePaths, memePaths, pathTo } from '#shared/api/paths.ts';
import { suiteApp, uniqueName } from '#test-support/test-app.ts';
import { TestClient, type Method } from '#test-support/test-client.ts';
import { databaseKinds } from '#test-support/test-database.ts';
import { unplayedScoreBody } from '#test-support/test-play.ts';
import { REGISTER_LIMIT_PER_IP } from '../auth/service.ts';
import { GALLERY_LIMITS } from '../memes/limits.ts';

/**
 * Every per-caller limit holds for an IPv6 client walking its own prefix (issue 30, finding 1):
 * a /64 for the per-client limits, a /48 for registrations and reports (docs/decisions/018).
 * The addresses arrive as a trusted proxy reports them (TRUST_PROXY=1, X-Forwarded-For).
 */
describe.each(databaseKinds)('per-network limits for IPv6 callers on %s', (kind) => {
  const t = suiteApp(kind, { trustProxy: 1 });

  /** A request as the proxy forwards it from `address`. */
  const from = (
    address: string,
    method: Method,
    path: string,
    body?: unknown,
    client = TestClient.inject(t.app),
  ) =>
    client.request(method, path, {
      body,
      forwardedFor: address,
      csrf: method !== 'GET' && !path.startsWith('/api/auth/'),
    });

  /** `count` addresses of one /64 (`prefix` is its first four groups). */
  const inSlash64 = (prefix: string, count: number) =>
    Array.from({ length: count }, (_, i) => `${prefix}:${(i + 1).toString(16)}:0:0:1`);

  it('opens at most the per-address number of accounts from one /48, each from its own /64', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < REGISTER_LIMIT_PER_IP + 5; i++) {
      const address = `2001:db8:48:${(i + 1).toString(16)}::1`;
      const res = await from(address, 'POST', authPaths.register, {
        username: uniqueName('six'),
        password: 'password123',
      });
      statuses.push(res.statusCode);
    }
    expect(statuses.slice(0, REGISTER_LIMIT_PER_IP).every((s) => s === 201)).toBe(true);
    expect(statuses.slice(REGISTER_LIMIT_PER_IP).every((s) => s === 429)).toBe(true);
    // Another subscriber keeps its own allowance.
    const other = await from('2001:db8:49::1', 'POST', authPaths.register, {
      username: uniqueName('six'),
      password: 'password123',
    });
    expect(other.statusCode).toBe(201);
  });

  it('stops wrong passwords for one member from rotating addresses of one /64', async () => {
    const name = uniqueName('target');
    expect(
      (
        await from('2001:db8:64:1::1', 'POST', authPaths.register, {
          username: name,
          password: 'rightpass1',
        })
      ).statusCode,
    ).toBe(201);
    const statuses: number[] = [];
    for (const address of inSlash64('2001:db8:64:2', 12)) {
      const res = await from(address, 'POST', authPaths.login, {
        username: name,
        password: 'wrong-password',
      });
      statuses.push(res.statusCode);
    }
    expect(statuses.slice(0, 10).every((s) => s === 401)).toBe(true);
    expect(statuses.slice(10).every((s) => s === 429)).toBe(true);
    // The owner, on their own line, is not locked out.
    const owner = await from('2001:db8:64:3::1', 'POST', authPaths.login, {
      username: name,
      password: 'rightpass1',
    });
    expect(owner.statusCode).toBe(200);
  });

  it('limits the runs visitors start per /64', async () => {
    const statuses: number[] = [];
    for (const address of inSlash64('2001:db8:65:1', 45)) {
      // Each run left after its countdown, so that runs still open never reach their own cap.
      t.clock.advance(1200);
      statuses.push((await from(address, 'POST', gamePaths.runs)).statusCode);
    }
    expect(statuses.slice(0, 40).every((s) => s === 201)).toBe(true);
    expect(statuses.slice(40).every((s) => s === 429)).toBe(true);
    expect((await from('2001:db8:65:2::1', 'POST', gamePaths.runs)).statusCode).toBe(201);
  });

  it('limits the scores one /64 sends', async () => {
    const body = unplayedScoreBody('A'.repeat(22), 'nobody');
    const statuses: number[] = [];
    for (const address of inSlash64('2001:db8:66:1', 61)) {
      statuses.push((await from(address, 'POST', gamePaths.scores, body)).statusCode);
    }
    expect(statuses.slice(0, 60).every((s) => s !== 429)).toBe(true);
    expect(statuses.at(-1)).toBe(429);
  });

  it('limits votes per /64', async () => {
    const votePath = pathTo(memePaths.vote, { id: 999_999 });
    const votes = GALLERY_LIMITS.votePerIp.limit;
    const voteStatuses: number[] = [];
    for (const address of inSlash64('2001:db8:67:1', votes + 1)) {
      voteStatuses.push((await from(address, 'POST', votePath, { voteType: 'up' })).statusCode);
    }
    expect(voteStatuses.slice(0, votes).every((s) => s === 404)).toBe(true);
    expect(voteStatuses.at(-1)).toBe(429);
  });

  it('limits reports per /48, each from its own /64', async () => {
    const reportPath = pathTo(memePaths.report, { id: 999_999 });
    const reports = GALLERY_LIMITS.reportPerIp.limit;
    const reportStatuses: number[] = [];
    for (let i = 0; i < reports + 1; i++) {
      const address = `2001:db8:68:${(i + 1).toString(16)}::1`;
      const res = await from(address, 'POST', reportPath, { reason: 'spam' });
      reportStatuses.push(res.statusCode);
    }
    expect(reportStatuses.slice(0, reports).every((s) => s !== 429)).toBe(true);
    expect(reportStatuses.at(-1)).toBe(429);
  });
});
