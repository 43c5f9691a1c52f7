import { runAdminIn } from '#test-support/admin-cli.ts';
import { describe, expect, it } from 'vitest';
import { consolePaths } from '#shared/api/console/common.ts';
import { suiteApp, uniqueName } from '#test-support/test-app.ts';
import { TestClient } from '#test-support/test-client.ts';
import { databaseKinds } from '#test-support/test-database.ts';
import { operator, PASSWORD } from '#test-support/operators.ts';
import { listDecisions } from '../db/operator-log.ts';

describe.each(databaseKinds)('console operator commands on %s', (kind) => {
  const t = suiteApp(kind, { publicOrigin: 'http://localhost:3000' });
  let lines: string[];

  async function admin(...argv: string[]): Promise<number> {
    const run = await runAdminIn(t, argv);
    lines = [...run.out, ...run.err];
    return run.code;
  }

  it('users:role has --help and refuses an unknown role or member with a clear line', async () => {
    expect(await admin('users:role', '--help')).toBe(0);
    expect(lines[0]).toBe('Usage: npm run admin -- users:role <username> <member|moderator|admin>');
    expect(await admin('users:role', 'someone', 'boss')).toBe(2);
    expect(lines[0]).toBe('Error: "boss" is not a role: use member, moderator, admin');
    expect(await admin('users:role', 'nobody_at_all', 'admin')).toBe(1);
    expect(lines).toEqual(['No member named "nobody_at_all".']);
    expect(await admin('users:role', 'only-a-name')).toBe(2);
  });

  it('users:role grants and takes back a role, logged as the CLI', async () => {
    const name = uniqueName('mod');
    const client = TestClient.inject(t.app);
    const user = await client.register(name);
    expect(await admin('users:role', name, 'moderator')).toBe(0);
    expect(lines[0]).toContain(`${name} is now moderator (was member)`);
    // The change ended the member's session: they sign in again, as a moderator.
    expect((await client.request('GET', consolePaths.me)).statusCode).toBe(401);
    expect((await client.login(name)).statusCode).toBe(200);
    expect((await client.request('GET', consolePaths.me)).json().role).toBe('moderator');
    expect(await admin('users:role', name, 'member')).toBe(0);
    expect((await client.login(name)).statusCode).toBe(200);
    expect((await client.request('GET', consolePaths.me)).statusCode).toBe(403);
    const log = await listDecisions(t.app.deps.db, {
      targetId: String(user.id),
      kind: 'role',
      limit: 5,
    });
    expect(log.map((e) => e.reason)).toEqual(['moderator -> member', 'member -> moderator']);
    expect(log[0]).toMatchObject({ operatorId: null, operatorAddress: 'cli' });
    expect(log[0]!.operatorName).toMatch(/^cli:/);
  });

  it('users:passkeys:reset removes the passkeys and ends the sessions', async () => {
    const mod = await operator(t, 'moderator', { passkey: true });
    expect((await mod.client.request('GET', consolePaths.passkeys)).statusCode).toBe(200);
    expect(await admin('users:passkeys:reset', '--help')).toBe(0);
    expect(await admin('users:passkeys:reset', mod.user.username)).toBe(0);
    expect(lines[0]).toContain('Removed 1 passkey(s)');
    expect((await mod.client.request('GET', consolePaths.passkeys)).statusCode).toBe(401);
    expect((await mod.client.login(mod.user.username, PASSWORD)).statusCode).toBe(200);
    expect((await mod.client.request('GET', consolePaths.me)).json()).toMatchObject({
      passkeys: 0,
      passkeyFresh: false,
    });
    const [entry] = await listDecisions(t.app.deps.db, { kind: 'passkeys-reset', limit: 1 });
    expect(entry).toMatchObject({ targetLabel: mod.user.username, details: { removed: 1 } });
  });
});
