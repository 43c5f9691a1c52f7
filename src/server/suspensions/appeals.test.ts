import { describe, expect, it } from 'vitest';
import { runAdminIn } from '#test-support/admin-cli.ts';
import { consolePaths } from '#shared/api/console/common.ts';
import { appealPaths, authPaths, memePaths, pathTo } from '#shared/api/paths.ts';
import { postMeme } from '#test-support/gallery.ts';
import { operator, PASSWORD, type Operator } from '#test-support/operators.ts';
import { suiteApp, uniqueName } from '#test-support/test-app.ts';
import { TestClient } from '#test-support/test-client.ts';
import { databaseKinds } from '#test-support/test-database.ts';
import { listDecisions } from '../db/operator-log.ts';

const TEXT = 'I voted with friends, not bots; please look again.';

describe.each(databaseKinds)('appeals on %s', (kind) => {
  const t = suiteApp(kind, { publicOrigin: 'http://localhost:3000' });
  let ipCounter = 0;
  /** Each member from a network of their own: the appeal limit counts per network. */
  const freshIp = () => `198.19.${Math.floor(++ipCounter / 200)}.${(ipCounter % 200) + 1}`;

  async function member(mod?: Operator) {
    const client = TestClient.inject(t.app, freshIp());
    const name = uniqueName('app');
    const user = await client.register(name, PASSWORD);
    if (mod) {
      const res = await mod.client.request(
        'POST',
        consolePaths.suspend.replace(':username', name),
        {
          body: { length: 'week', reason: 'vote brigading' },
        },
      );
      expect(res.statusCode, res.body).toBe(200);
    }
    return { client, user, name };
  }

  const appeal = (client: TestClient, text: unknown = TEXT) =>
    client.request('POST', appealPaths.appeal, { body: { text } });
  const appealRows = async () =>
    Number(
      (
        await t.app.deps.db
          .selectFrom('appeals')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );
  const queueAppeals = async (mod: Operator) =>
    (await mod.client.request('GET', consolePaths.reports)).json().appeals as Array<{
      id: number;
      member: string;
      text: string;
      decision: string | null;
      suspension: { reason: string; endsAt: number | null; liftedAt: number | null };
    }>;
  const decide = (mod: Operator, id: number, decision: string, reason = 'read the appeal') =>
    mod.client.request('POST', pathTo(consolePaths.appealDecision, { id }), {
      body: { decision, reason },
    });
  /** The operator log's entries on `member`, newest first. */
  const decisionsOn = (member: { user: { id: number } }, limit: number) =>
    listDecisions(t.app.deps.db, { targetType: 'member', targetId: String(member.user.id), limit });

  it('a suspended member appeals once; a second appeal is 409, a member not suspended 409, a visitor 401', async () => {
    const mod = await operator(t, 'moderator', { passkey: true });
    const suspended = await member(mod);
    // What the appeal form reads first: offered while no appeal is filed, not after.
    const status = async (client: TestClient) =>
      (await client.request('GET', appealPaths.appeal)).json();
    expect(await status(suspended.client)).toEqual({
      suspension: { reason: 'vote brigading', endsAt: expect.any(Number) },
      appeal: null,
    });
    const res = await appeal(suspended.client, `  ${TEXT}\n`);
    expect(res.statusCode, res.body).toBe(201);
    expect((await status(suspended.client)).appeal).toEqual(res.json().appeal);
    expect(res.json()).toEqual({ appeal: { id: expect.any(Number), createdAt: t.clock.now() } });
    const listed = (await queueAppeals(mod)).find((a) => a.id === res.json().appeal.id);
    expect(listed).toMatchObject({
      member: suspended.name,
      text: TEXT,
      decision: null,
      suspension: { reason: 'vote brigading', liftedAt: null },
    });

    const before = await appealRows();
    const again = await appeal(suspended.client, 'Second try, maybe someone else reads it.');
    expect(again.statusCode).toBe(409);
    expect(again.json().code).toBe('APPEAL_EXISTS');

    const free = await member();
    expect(await status(free.client)).toEqual({ suspension: null, appeal: null });
    expect(
      (await TestClient.inject(t.app, freshIp()).request('GET', appealPaths.appeal)).statusCode,
    ).toBe(401);
    const notSuspended = await appeal(free.client);
    expect(notSuspended.statusCode).toBe(409);
    expect(notSuspended.json()).toEqual({ message: expect.any(String), code: 'NOT_SUSPENDED' });

    const visitor = await appeal(TestClient.inject(t.app, freshIp()));
    expect(visitor.statusCode).toBe(401);
    const noCsrf = await suspended.client.request('POST', appealPaths.appeal, {
      body: { text: TEXT },
      csrf: false,
    });
    expect(noCsrf.statusCode).toBe(403);
    expect(noCsrf.json().code).toBe('CSRF');
    expect(await appealRows()).toBe(before);
  });

  it('bad text is 400 and files nothing; the member may then appeal properly', async () => {
    const mod = await operator(t, 'moderator', { passkey: true });
    const suspended = await member(mod);
    const before = await appealRows();
    for (const text of [
      '',
      '   short  ',
      'x'.repeat(501),
      'null\u0000byte in the text',
      42,
      null,
    ]) {
      const res = await appeal(suspended.client, text);
      expect(res.statusCode, JSON.stringify(text)).toBe(400);
      expect(res.json().message).toEqual(expect.any(String));
    }
    const noBody = await suspended.client.request('POST', appealPaths.appeal, { body: {} });
    expect(noBody.statusCode).toBe(400);
    expect(await appealRows()).toBe(before);
    expect((await appeal(suspended.client, 'x'.repeat(500))).statusCode).toBe(201);
  });

  it('lifting ends the suspension (the member votes again), is logged with operator and network, and is decided once', async () => {
    const mod = await operator(t, 'moderator', { passkey: true, ip: '203.0.113.71' });
    const poster = TestClient.inject(t.app, freshIp());
    await poster.register(uniqueName('poster'));
    const meme = await postMeme(t.app, poster, { title: 'Appeal vote' });
    const suspended = await member(mod);
    const vote = () =>
      suspended.client.request('POST', pathTo(memePaths.vote, { id: meme.id }), {
        body: { voteType: 'up' },
      });
    expect((await vote()).json().code).toBe('SUSPENDED');
    const { id } = (await appeal(suspended.client)).json().appeal;

    const tooShort = await decide(mod, id, 'lift', '');
    expect(tooShort.statusCode).toBe(400);
    expect((await decide(mod, id, 'pardon')).statusCode).toBe(400);
    expect((await vote()).statusCode).toBe(403);

    const res = await decide(mod, id, 'lift', 'friends, not bots: fair enough');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().appeal).toMatchObject({
      id,
      decision: 'lifted',
      decidedAt: t.clock.now(),
      suspension: { liftedAt: t.clock.now() },
    });
    expect((await vote()).statusCode).toBe(200);
    expect((await queueAppeals(mod)).some((a) => a.id === id)).toBe(false);

    const twice = await decide(mod, id, 'uphold');
    expect(twice.statusCode).toBe(409);
    expect(twice.json().code).toBe('APPEAL_DECIDED');
    expect((await decide(mod, 999_999, 'uphold')).statusCode).toBe(404);

    const log = await decisionsOn(suspended, 10);
    expect(log.map((e) => e.kind)).toEqual(['appeal-lift', 'suspend']);
    expect(log[0]).toMatchObject({
      operatorId: mod.user.id,
      operatorName: mod.user.username,
      operatorAddress: '203.0.113.71',
      targetLabel: suspended.name,
      reason: 'friends, not bots: fair enough',
      details: { appeal: id, liftedNow: true },
    });
  });

  it('upholding keeps the suspension and is logged', async () => {
    const mod = await operator(t, 'moderator', { passkey: true });
    const suspended = await member(mod);
    const { id } = (await appeal(suspended.client)).json().appeal;
    const res = await decide(mod, id, 'uphold', 'the votes came from one script');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().appeal).toMatchObject({ decision: 'upheld', suspension: { liftedAt: null } });
    const report = await suspended.client.request('POST', pathTo(memePaths.report, { id: 1 }), {
      body: { reason: 'spam' },
    });
    expect(report.statusCode).toBe(403);
    expect(report.json().code).toBe('SUSPENDED');
    // Decided, the suspension cannot be appealed again.
    expect((await appeal(suspended.client)).json().code).toBe('APPEAL_EXISTS');
    const [entry] = await decisionsOn(suspended, 1);
    expect(entry).toMatchObject({
      kind: 'appeal-uphold',
      reason: 'the votes came from one script',
      operatorId: mod.user.id,
    });
  });

  it('the decision is told on the next sign-in, once it is seen never again', async () => {
    const mod = await operator(t, 'moderator', { passkey: true });
    const suspended = await member(mod);
    const { id } = (await appeal(suspended.client)).json().appeal;
    const me = async (client: TestClient) => (await client.request('GET', authPaths.me)).json();
    expect(await me(suspended.client)).toEqual({ user: expect.any(Object) });

    await decide(mod, id, 'uphold', 'the votes came from one script');
    const laptop = TestClient.inject(t.app, freshIp());
    await laptop.login(suspended.name, PASSWORD);
    const told = {
      id,
      decision: 'upheld',
      note: 'the votes came from one script',
      decidedAt: t.clock.now(),
    };
    expect((await me(laptop)).appealDecision).toEqual(told);
    // Until the member has seen it, every session is told (the phone too).
    expect((await me(suspended.client)).appealDecision).toEqual(told);

    // Only the member's own decided appeal can be marked seen.
    const other = await member();
    const notTheirs = await other.client.request('POST', pathTo(appealPaths.seen, { id }));
    expect(notTheirs.statusCode).toBe(404);
    expect((await me(laptop)).appealDecision).toEqual(told);
    expect(
      (await TestClient.inject(t.app).request('POST', pathTo(appealPaths.seen, { id }))).statusCode,
    ).toBe(401);

    const seen = await laptop.request('POST', pathTo(appealPaths.seen, { id }));
    expect(seen.json()).toEqual({ ok: true });
    expect(await me(laptop)).toEqual({ user: { id: suspended.user.id, username: suspended.name } });
    expect((await me(suspended.client)).appealDecision).toBeUndefined();
    expect((await laptop.request('POST', pathTo(appealPaths.seen, { id }))).statusCode).toBe(200);
  });
  it('the CLI lists and decides appeals through the same service, logged as the CLI', async () => {
    const mod = await operator(t, 'moderator', { passkey: true });
    const suspended = await member(mod);
    const { id } = (await appeal(suspended.client)).json().appeal;
    const list = await runAdminIn(t, ['appeals:list', '--limit', '1000']);
    expect(list.code).toBe(0);
    expect(list.text).toContain(`#${id}  ${suspended.name}  suspended until`);
    expect(list.text).toContain(JSON.stringify(TEXT));

    expect(
      (await runAdminIn(t, ['appeals:decide', String(id), 'pardon', '--reason', 'ok'])).code,
    ).toBe(2);
    expect((await runAdminIn(t, ['appeals:decide', String(id), 'lift'])).code).toBe(2);
    expect(
      (await runAdminIn(t, ['appeals:decide', String(id), 'lift', '--reason', 'x'])).code,
    ).toBe(2);
    const lifted = await runAdminIn(t, [
      'appeals:decide',
      String(id),
      'lift',
      '--reason',
      'heard on Discord',
    ]);
    expect(lifted.code, lifted.text).toBe(0);
    expect(lifted.text).toContain('the suspension is over');
    const report = await suspended.client.request(
      'POST',
      pathTo(memePaths.report, { id: 999_999 }),
      {
        body: { reason: 'spam' },
      },
    );
    // No longer refused for the suspension: the report reaches the route (no such meme).
    expect(report.statusCode).toBe(404);
    const again = await runAdminIn(t, [
      'appeals:decide',
      String(id),
      'uphold',
      '--reason',
      'twice',
    ]);
    expect(again.code).toBe(1);
    expect(again.text).toContain('already been decided');
    expect((await queueAppeals(mod)).some((a) => a.id === id)).toBe(false);
    const [entry] = await decisionsOn(suspended, 1);
    expect(entry).toMatchObject({
      kind: 'appeal-lift',
      reason: 'heard on Discord',
      operatorId: null,
      operatorAddress: 'cli',
    });
  });
});
