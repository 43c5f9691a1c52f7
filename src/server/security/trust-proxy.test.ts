import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '#server/app.ts';
import { ConfigError, loadConfig, parseTrustProxy, type AppConfig } from '#server/config.ts';
import { startForwardingProxy, type ForwardingProxy } from '#test-support/forwarding-proxy.ts';
import { TestClock, uniqueName } from '#test-support/test-app.ts';
import {
  createTestDatabase,
  databaseKinds,
  type TestDatabase,
} from '#test-support/test-database.ts';
import { REGISTER_LIMIT_PER_IP } from '../auth/service.ts';
import { authPaths } from '#shared/api/paths.ts';

/** POSTs JSON through the proxy from a chosen loopback address (the client's real address). */
function post(
  base: string,
  path: string,
  body: unknown,
  from: string,
  forged: string,
): Promise<number> {
  const url = new URL(path, base);
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: url.hostname,
        port: url.port,
        path: url.pathname,
        method: 'POST',
        localAddress: from,
        headers: { 'content-type': 'application/json', 'x-forwarded-for': forged },
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      },
    );
    req.on('error', reject);
    req.end(JSON.stringify(body));
  });
}

describe('TRUST_PROXY', () => {
  it('means no trust, one hop (true), a hop count or a list of proxy addresses', () => {
    expect(parseTrustProxy(undefined)).toBe(false);
    expect(parseTrustProxy('false')).toBe(false);
    expect(parseTrustProxy('0')).toBe(false);
    expect(parseTrustProxy('true')).toBe(1);
    expect(parseTrustProxy('2')).toBe(2);
    expect(parseTrustProxy('10.0.0.0/8, 127.0.0.1,::1, loopback')).toEqual([
      '10.0.0.0/8',
      '127.0.0.1',
      '::1',
      'loopback',
    ]);
    for (const bad of ['yes', '10.0.0.0/33', '10.0.0.300', '11', 'all']) {
      expect(() => parseTrustProxy(bad)).toThrow(ConfigError);
    }
    expect(() => loadConfig({ TRUST_PROXY: 'everything' })).toThrow(
      /^Invalid TRUST_PROXY: expected false, true/,
    );
  });

  it('needs PUBLIC_ORIGIN: behind a proxy, Host and X-Forwarded-Host are the client’s word', () => {
    for (const trust of ['true', '2', '10.0.0.5']) {
      expect(() => loadConfig({ TRUST_PROXY: trust })).toThrow(
        /^Invalid PUBLIC_ORIGIN: required when TRUST_PROXY is set/,
      );
      expect(
        loadConfig({ TRUST_PROXY: trust, PUBLIC_ORIGIN: 'https://dailygrind.example' })
          .publicOrigin,
      ).toBe('https://dailygrind.example');
    }
    expect(loadConfig({ TRUST_PROXY: 'false' }).trustProxy).toBe(false);
  });
});

const setups = databaseKinds.flatMap((kind) =>
  ['true', '127.0.0.1'].map((trust) => [kind, trust] as const),
);

describe.each(setups)(
  'behind a proxy that appends X-Forwarded-For, on %s with TRUST_PROXY=%s',
  (kind, trust) => {
    let testDb: TestDatabase;
    let app: Awaited<ReturnType<typeof buildApp>>;
    let proxy: ForwardingProxy;
    const logLines: string[] = [];

    beforeAll(async () => {
      testDb = await createTestDatabase(kind);
      const config: AppConfig = {
        ...loadConfig({
          NODE_ENV: 'test',
          DATA_DIR: testDb.dataDir,
          SESSION_SECRET: 'test-secret-'.padEnd(48, 'x'),
          TRUST_PROXY: trust,
          PUBLIC_ORIGIN: 'https://dailygrind.example',
        }),
        database: testDb.database,
        clientDistDir: undefined,
      };
      app = await buildApp(config, {
        clock: new TestClock(),
        logger: { level: 'info', stream: { write: (line: string) => logLines.push(line) } },
      });
      proxy = await startForwardingProxy(await app.listen({ port: 0, host: '127.0.0.1' }));
    });
    afterAll(async () => {
      await proxy?.close();
      app?.server.closeAllConnections();
      await app?.close();
      await testDb?.drop();
    });

    /** `count` POSTs one after another from one real address, each forging its own hop. */
    async function postEach(
      count: number,
      path: string,
      from: string,
      request: (i: number) => { body: unknown; forged: string },
    ): Promise<number[]> {
      const statuses: number[] = [];
      for (let i = 0; i < count; i++) {
        const { body, forged } = request(i);
        statuses.push(await post(proxy.url, path, body, from, forged));
      }
      return statuses;
    }

    it('limits failed logins by the real address whatever the client forges, and logs the real address', async () => {
      const statuses = await postEach(60, authPaths.login, '127.0.0.7', (i) => ({
        body: { username: uniqueName('nobody'), password: 'wrong-password' },
        forged: `10.9.${i}.1, 127.0.0.1`,
      }));
      expect(statuses.slice(0, 50).every((s) => s === 401)).toBe(true);
      expect(statuses.slice(50).every((s) => s === 429)).toBe(true);
      // Another client behind the same proxy keeps its own allowance.
      expect(
        await post(
          proxy.url,
          authPaths.login,
          { username: uniqueName('nobody'), password: 'wrong-password' },
          '127.0.0.8',
          '10.9.0.1',
        ),
      ).toBe(401);

      const loginLines = logLines
        .filter((l) => l.includes(authPaths.login))
        .map((l) => JSON.parse(l) as { req?: { remoteAddress?: string } });
      const addresses = new Set(
        loginLines.flatMap((l) => (l.req?.remoteAddress ? [l.req.remoteAddress] : [])),
      );
      expect(addresses).toEqual(new Set(['127.0.0.7', '127.0.0.8']));
    });

    it('limits registrations by the real address whatever the client forges', async () => {
      const statuses = await postEach(
        REGISTER_LIMIT_PER_IP + 1,
        authPaths.register,
        '127.0.0.9',
        (i) => ({
          body: { username: uniqueName('sock'), password: 'password123' },
          forged: `10.8.${i}.1`,
        }),
      );
      expect(statuses.slice(0, REGISTER_LIMIT_PER_IP).every((s) => s === 201)).toBe(true);
      expect(statuses.at(-1)).toBe(429);
    });
  },
);
