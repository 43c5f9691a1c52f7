import { randomInt } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createTestApp, suiteApp, uniqueName } from '#test-support/test-app.ts';
import { TestClient } from '#test-support/test-client.ts';
import { databaseKinds } from '#test-support/test-database.ts';
import { freePort } from '#test-support/node-process.ts';
import { WIDE_NETWORK_SHARE } from '../http/client-network.ts';
import { TestClock } from '#test-support/test-app.ts';
import {
  createMemoryRateLimiter,
  enforceRateLimit,
  giveBack,
  rateKeys,
  type RateLimiter,
} from './rate-limit.ts';
import { createRedisRateLimiter } from './redis-rate-limit.ts';

const redisUrl = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

async function expectFixedWindow(limiter: RateLimiter, key: string) {
  const results = await Promise.all(Array.from({ length: 25 }, () => limiter.hit(key, 10, 60_000)));
  expect(results.filter((r) => r.allowed)).toHaveLength(10);
  expect(
    results
      .filter((r) => !r.allowed)
      .every((r) => r.retryAfterSeconds > 0 && r.retryAfterSeconds <= 60),
  ).toBe(true);
  await limiter.reset(key);
  expect((await limiter.hit(key, 1, 60_000)).allowed).toBe(true);
  await limiter.undo(key);
  expect((await limiter.hit(key, 1, 60_000)).allowed).toBe(true);
  expect((await limiter.hit(key, 1, 60_000)).allowed).toBe(false);
}

describe('a limit keyed by a network', () => {
  it('counts an IPv6 /64 at its /48 too, and anything else once', () => {
    expect(rateKeys('login:user:cornet:net:2001:db8:1:2::/64')).toEqual([
      { key: 'login:user:cornet:net:2001:db8:1:2::/64', share: 1 },
      { key: 'login:user:cornet:net:2001:db8:1::/48', share: WIDE_NETWORK_SHARE },
    ]);
    // A name that reads as hex is not taken for part of the address.
    expect(rateKeys('login:user:beef:net:db8:1:2::/64').map((k) => k.key)).toEqual([
      'login:user:beef:net:db8:1:2::/64',
      'login:user:beef:net:db8:1:2::/48',
    ]);
    for (const key of [
      'login:net:203.0.113.7',
      'register:net:2001:db8:1::/48',
      'login:account:internet',
      'coins-add:user:7',
    ]) {
      expect(rateKeys(key)).toEqual([{ key, share: 1 }]);
    }
  });

  it('refuses the /64s of one /48 past a few /64 allowances, and strangers not at all', async () => {
    const limiter = createMemoryRateLimiter(new TestClock());
    const rule = { limit: 5, windowMs: 60_000 };
    const hit = (network: string) =>
      enforceRateLimit(limiter, `walk:net:${network}`, rule, 'Too many.').then(
        () => 200,
        (error: { statusCode: number }) => error.statusCode,
      );
    const statuses: number[] = [];
    // Each /64 of 2001:db8:7::/48 in turn, two hits each: never past its own limit of five.
    for (let i = 1; i <= 2 * WIDE_NETWORK_SHARE * rule.limit; i++) {
      statuses.push(await hit(`2001:db8:7:${Math.ceil(i / 2).toString(16)}::/64`));
    }
    const allowed = WIDE_NETWORK_SHARE * rule.limit;
    expect(statuses.slice(0, allowed).every((s) => s === 200)).toBe(true);
    expect(statuses.slice(allowed).every((s) => s === 429)).toBe(true);
    expect(await hit('2001:db8:8:1::/64')).toBe(200);
    expect(await hit('203.0.113.9')).toBe(200);
    // A /64 past its own limit takes nothing more from its /48.
    const own = '2001:db8:9:1::/64';
    for (let i = 0; i < 10; i++) await hit(own);
    for (let i = 2; i <= WIDE_NETWORK_SHARE; i++) {
      for (let j = 0; j < rule.limit; j++) expect(await hit(`2001:db8:9:${i}::/64`)).toBe(200);
    }
    // Given back at both widths: the /48 has room for exactly one more.
    await giveBack(limiter, `walk:net:2001:db8:9:2::/64`);
    expect(await hit('2001:db8:9:99::/64')).toBe(200);
    expect(await hit('2001:db8:9:98::/64')).toBe(429);
  });
});

describe.each(databaseKinds)('SQL rate limiter on %s', (kind) => {
  const t = suiteApp(kind);

  it('lets exactly the limit through under concurrency, and resets and undoes', async () => {
    await expectFixedWindow(t.app.deps.rateLimiter, `test:${uniqueName()}`);
  });
});

/** Stands in for the SQL counters where a test must prove Redis did the counting. */
const unusedFallback: RateLimiter = {
  hit: () => Promise.reject(new Error('the fallback counted a hit')),
  undo: () => Promise.reject(new Error('the fallback took an undo')),
  reset: () => Promise.reject(new Error('the fallback took a reset')),
  close: async () => {},
};

describe('Redis rate limiter (REDIS_URL)', () => {
  it('lets exactly the limit through under concurrency, and resets and undoes', async () => {
    const limiter = createRedisRateLimiter(redisUrl, unusedFallback, `grind-test:${process.pid}:`);
    try {
      await expectFixedWindow(limiter, uniqueName());
      expect(limiter.usingFallback()).toBe(false);
    } finally {
      await limiter.close();
    }
  });

  it('counts in the fallback while Redis cannot be reached', async () => {
    const t = await createTestApp('sqlite');
    // A port with nothing listening: every connection attempt is refused.
    const limiter = createRedisRateLimiter(
      `redis://127.0.0.1:${await freePort()}`,
      t.app.deps.rateLimiter,
    );
    try {
      await expectFixedWindow(limiter, `test:${uniqueName()}`);
      expect(limiter.usingFallback()).toBe(true);
    } finally {
      await limiter.close();
      await t.close();
    }
  });

  it('throttles logins through the app when REDIS_URL is set, shared by two app instances', async () => {
    const a = await createTestApp('sqlite', { redisUrl });
    const b = await createTestApp('sqlite', { redisUrl });
    try {
      const name = uniqueName();
      // Redis outlives the run, and so would per-IP counts for one fixed address.
      const ip = `10.${randomInt(256)}.${randomInt(256)}.${randomInt(1, 255)}`;
      await TestClient.inject(a.app, ip).register(name, 'rightpass');
      for (let i = 0; i < 10; i++) {
        const app = i % 2 === 0 ? a.app : b.app;
        expect((await TestClient.inject(app, ip).login(name, 'wrong')).statusCode).toBe(401);
      }
      // b has no user of that name in its own database, but the throttle is shared via Redis.
      expect((await TestClient.inject(b.app, ip).login(name, 'rightpass')).statusCode).toBe(429);
      expect((await TestClient.inject(a.app, ip).login(name, 'rightpass')).statusCode).toBe(429);
      const rows = await a.app.deps.db.selectFrom('rate_limits').selectAll().execute();
      expect(rows).toHaveLength(0);
    } finally {
      await a.close();
      await b.close();
    }
  });
});
