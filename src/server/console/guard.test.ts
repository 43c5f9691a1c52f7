import { describe, expect, it } from 'vitest';
import {
  consolePaths,
  PASSKEY_SIGN_IN_MAX_MS,
  PASSKEY_STEP_UP_MS,
} from '#shared/api/console/common.ts';
import { CONSOLE_ROUTES } from '#test-support/console-routes.ts';
import { suiteApp } from '#test-support/test-app.ts';
import type { TestClient } from '#test-support/test-client.ts';
import { databaseKinds } from '#test-support/test-database.ts';
import { operator, passkeySignIn } from '#test-support/operators.ts';

const ORIGIN = 'http://localhost:3000';
const MINUTE = 60 * 1000;
const HOUR = 60 * MINUTE;

const code = async (client: TestClient, path: string) =>
  (await client.request('GET', path)).json().code as string | undefined;

describe.each(databaseKinds)('the console guard on %s', (kind) => {
  const t = suiteApp(kind, { publicOrigin: ORIGIN });

  it('a session that only asks who it is does not keep its passkey sign-in', async () => {
    const mod = await operator(t, 'moderator', { passkey: true });
    // The console's page polls /api/admin/me; a tab left open must not hold the door open.
    for (let i = 0; i < 6; i++) {
      t.clock.advance(5 * MINUTE);
      expect((await mod.client.request('GET', consolePaths.me)).statusCode).toBe(200);
    }
    expect(30 * MINUTE).toBeGreaterThan(PASSKEY_STEP_UP_MS);
    expect(await code(mod.client, consolePaths.passkeys)).toBe('PASSKEY_REQUIRED');
    expect((await mod.client.request('GET', consolePaths.me)).json().passkeyFresh).toBe(false);
  });

  it('the step-up ends 12 hours after the passkey sign-in, however busy the session', async () => {
    expect(PASSKEY_SIGN_IN_MAX_MS).toBe(12 * HOUR);
    const mod = await operator(t, 'moderator', { passkey: true });
    const start = t.clock.now();
    // Used every ten minutes, the sliding window never closes on its own.
    while (t.clock.now() - start + 10 * MINUTE <= PASSKEY_SIGN_IN_MAX_MS) {
      t.clock.advance(10 * MINUTE);
      expect(await code(mod.client, consolePaths.passkeys)).toBeUndefined();
    }
    t.clock.advance(start + PASSKEY_SIGN_IN_MAX_MS + 1 - t.clock.now());
    expect(await code(mod.client, consolePaths.passkeys)).toBe('PASSKEY_REQUIRED');
    expect((await mod.client.request('GET', consolePaths.me)).json().passkeyFresh).toBe(false);
    // A passkey sign-in starts a new twelve hours.
    expect((await passkeySignIn(mod.client, mod.authenticator)).statusCode).toBe(200);
    expect(await code(mod.client, consolePaths.passkeys)).toBeUndefined();
  });

  it('a suspended operator has no console, not even the passkey steps; lifted, it is back', async () => {
    const admin = await operator(t, 'admin', { passkey: true });
    const { db } = t.app.deps;
    const suspension = await db
      .insertInto('suspensions')
      .values({
        user_id: admin.user.id,
        reason: 'under review',
        starts_at: t.clock.now(),
        ends_at: t.clock.now() + 24 * HOUR,
        operator_id: null,
        lifted_at: null,
        lifted_by: null,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    for (const route of CONSOLE_ROUTES) {
      const res = await admin.client.request(
        route.method,
        route.path,
        route.body ? { body: route.body } : {},
      );
      const label = `${route.method} ${route.path}`;
      expect(res.statusCode, label).toBe(403);
      expect(res.json(), label).toEqual({ message: expect.any(String), code: 'SUSPENDED' });
    }
    await db
      .updateTable('suspensions')
      .set({ lifted_at: t.clock.now() })
      .where('id', '=', suspension.id)
      .execute();
    expect((await admin.client.request('GET', consolePaths.me)).statusCode).toBe(200);
    expect(await code(admin.client, consolePaths.passkeys)).toBeUndefined();
  });

  it('a suspension that has ended closes nothing', async () => {
    const mod = await operator(t, 'moderator', { passkey: true });
    await t.app.deps.db
      .insertInto('suspensions')
      .values({
        user_id: mod.user.id,
        reason: 'a day off',
        starts_at: t.clock.now() - 2 * 24 * HOUR,
        ends_at: t.clock.now() - 24 * HOUR,
        operator_id: null,
        lifted_at: null,
        lifted_by: null,
      })
      .execute();
    expect(await code(mod.client, consolePaths.passkeys)).toBeUndefined();
  });
});
