import { describe, expect, it } from 'vitest';
import { prizeWeekEndpoint } from '#shared/api/console/prize-week.ts';
import { walletEndpoint } from '#shared/api/wallet.ts';
import type { Endpoint } from '#shared/api/endpoint.ts';
import { createTestApp, suiteApp } from '#test-support/test-app.ts';
import { databaseKinds } from '#test-support/test-database.ts';
import { operator } from '#test-support/operators.ts';
import { TestClient, type Reply } from '#test-support/test-client.ts';
import { endpointRoute } from './endpoint-route.ts';

/** Every endpoint object, read from the folder: a new module's are checked the day it appears. */
const endpoints = Object.values(
  import.meta.glob(['../../shared/api/**/*.ts', '!../../shared/api/**/*.test.ts'], { eager: true }),
)
  .flatMap((module) => Object.values(module as Record<string, unknown>))
  .filter(
    (value): value is Endpoint =>
      typeof value === 'object' && value !== null && 'method' in value && 'access' in value,
  );
const withAccess = (...access: Endpoint['access'][]) =>
  endpoints.filter((endpoint) => access.includes(endpoint.access));

/** A path the endpoint's route matches: the guard answers before its parameters are validated. */
const anyPath = (endpoint: Endpoint) =>
  endpoint.path.replace(/:\w+/g, '1').replace(/\*$/, 'anything');

/** A call with no body: the guard runs before the body is read, so none is needed. */
const call = (client: TestClient, endpoint: Endpoint) =>
  client.request(endpoint.method, anyPath(endpoint));

const refusal = (res: Reply) => ({ status: res.statusCode, ...res.json<object>() });

describe.each(databaseKinds)(
  "endpointRoute installs the guard an endpoint's access names, on %s",
  (kind) => {
    const t = suiteApp(kind);

    it('finds the endpoints of every access level', () => {
      for (const access of ['public', 'visitor', 'member', 'moderator', 'admin'] as const) {
        expect(withAccess(access).length, access).toBeGreaterThan(0);
      }
    });

    it("a member's endpoint answers a visitor 401 with the endpoint's own words", async () => {
      const visitor = TestClient.inject(t.app);
      for (const endpoint of withAccess('member')) {
        const signIn = endpoint.access === 'member' ? endpoint.signIn : '';
        expect(
          refusal(await call(visitor, endpoint)),
          `${endpoint.method} ${endpoint.path}`,
        ).toEqual({
          status: 401,
          message: signIn,
          code: 'UNAUTHORIZED',
        });
      }
    });

    it('a console endpoint answers a visitor 401 and a member 403 NOT_OPERATOR', async () => {
      const visitor = TestClient.inject(t.app);
      const member = await operator(t, 'member');
      for (const endpoint of withAccess('moderator', 'admin')) {
        const label = `${endpoint.method} ${endpoint.path}`;
        expect(refusal(await call(visitor, endpoint)), label).toEqual({
          status: 401,
          message: 'Please sign in first.',
          code: 'UNAUTHORIZED',
        });
        expect(refusal(await call(member.client, endpoint)), label).toMatchObject({
          status: 403,
          code: 'NOT_OPERATOR',
        });
      }
    });

    it("an admin's endpoint answers a moderator with a fresh passkey 403 ADMIN_ONLY", async () => {
      const moderator = await operator(t, 'moderator', { passkey: true });
      for (const endpoint of withAccess('admin')) {
        expect(refusal(await call(moderator.client, endpoint)), endpoint.path).toEqual({
          status: 403,
          message: 'Only an admin may do this.',
          code: 'ADMIN_ONLY',
        });
      }
    });

    it('a console endpoint asks for the passkey step-up unless it comes before it', async () => {
      const moderator = await operator(t, 'moderator');
      const admin = await operator(t, 'admin');
      for (const endpoint of withAccess('moderator', 'admin')) {
        const label = `${endpoint.method} ${endpoint.path}`;
        const res = await call(
          endpoint.access === 'admin' ? admin.client : moderator.client,
          endpoint,
        );
        if ('beforePasskey' in endpoint) {
          expect(res.json<{ code?: string }>().code, label).not.toBe('PASSKEY_REQUIRED');
        } else {
          expect(refusal(res), label).toEqual({
            status: 403,
            message: 'Sign in with your passkey to use the console.',
            code: 'PASSKEY_REQUIRED',
          });
        }
      }
    });
  },
);

describe("endpointRoute's refusals at start-up", () => {
  it('refuses a console endpoint outside the console scope, where its guard is not lent', async () => {
    const fresh = await createTestApp('sqlite');
    try {
      expect(() => endpointRoute(fresh.app, prizeWeekEndpoint, async () => ({}) as never)).toThrow(
        "GET /api/admin/prize-week: a console endpoint belongs in the console's scope",
      );
      // A member's endpoint needs nothing lent: its guard is the session's.
      expect(() =>
        endpointRoute(fresh.app, { ...walletEndpoint, path: '/api/test-wallet' }, async () => ({
          wallet: null,
        })),
      ).not.toThrow();
    } finally {
      await fresh.close();
    }
  });
});
