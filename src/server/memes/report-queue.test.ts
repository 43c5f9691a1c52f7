import { runAdminIn } from '#test-support/admin-cli.ts';
import { describe, expect, it } from 'vitest';
import { consolePaths } from '#shared/api/console/common.ts';
import { LIVE_EVENTS_PATH } from '#shared/api/live.ts';
import { memePaths, pathTo } from '#shared/api/paths.ts';
import { EventStreamReader } from '#test-support/event-stream.ts';
import { postMeme } from '#test-support/gallery.ts';
import { operator } from '#test-support/operators.ts';
import { suiteApp, uniqueName } from '#test-support/test-app.ts';
import { TestClient } from '#test-support/test-client.ts';
import { databaseKinds } from '#test-support/test-database.ts';
import { listDecisions } from '../db/operator-log.ts';

describe.each(databaseKinds)('the report queue on %s', (kind) => {
  const t = suiteApp(kind, { publicOrigin: 'http://localhost:3000' });

  async function reportedMeme(title: string, reasons: string[]) {
    const owner = TestClient.inject(t.app);
    const uploader = await owner.register(uniqueName('up'));
    const meme = await postMeme(t.app, owner, { title });
    for (const [i, reason] of reasons.entries()) {
      const res = await TestClient.inject(t.app, `198.18.${reasons.length}.${i + 1}`).request(
        'POST',
        pathTo(memePaths.report, { id: meme.id }),
        { body: { reason } },
      );
      expect(res.statusCode).toBe(200);
    }
    return { meme, uploader };
  }

  const decideOn = (client: TestClient, id: number, decision: string, reason = 'looked at it') =>
    client.request('POST', pathTo(consolePaths.memeDecision, { id }), {
      body: { decision, reason },
    });

  it('lists reported memes with image, uploader, count and reasons, most reported or newest first', async () => {
    const mod = await operator(t, 'moderator', { passkey: true });
    const one = await reportedMeme('Queue one', ['spam']);
    t.clock.advance(1000);
    const two = await reportedMeme('Queue two', ['spam', 'hateful', 'spam']);
    const most = (await mod.client.request('GET', `${consolePaths.reports}?sort=most`)).json();
    const ids = most.entries.map((e: { meme: { id: number } }) => e.meme.id);
    expect(ids.indexOf(two.meme.id)).toBeLessThan(ids.indexOf(one.meme.id));
    const entry = most.entries.find((e: { meme: { id: number } }) => e.meme.id === two.meme.id);
    expect(entry).toMatchObject({
      meme: {
        title: 'Queue two',
        uploader: two.uploader.username,
        hidden: true,
        imageUrl: expect.stringMatching(/^\/objects\//),
      },
      reports: 3,
      reasons: { spam: 2, hateful: 1 },
      decision: null,
    });
    expect(most.openReports).toBeGreaterThanOrEqual(4);
    t.clock.advance(1000);
    await TestClient.inject(t.app, '198.18.9.9').request(
      'POST',
      pathTo(memePaths.report, { id: one.meme.id }),
      { body: { reason: 'other' } },
    );
    const newest = (await mod.client.request('GET', `${consolePaths.reports}?sort=newest`)).json();
    expect(newest.entries[0].meme.id).toBe(one.meme.id);
    expect(
      (await mod.client.request('GET', `${consolePaths.reports}?sort=sideways`)).statusCode,
    ).toBe(400);
  });

  it('hide, unhide, dismiss and delete take effect, each logged with its reason, operator and address', async () => {
    const mod = await operator(t, 'moderator', { passkey: true, ip: '203.0.113.44' });
    const { meme } = await reportedMeme('To be judged', ['spam']);
    const visitor = TestClient.inject(t.app);
    const page = () => visitor.request('GET', pathTo(memePaths.one, { id: meme.id }));
    expect((await page()).statusCode).toBe(200);

    const noReason = await mod.client.request(
      'POST',
      pathTo(consolePaths.memeDecision, { id: meme.id }),
      {
        body: { decision: 'hide', reason: '' },
      },
    );
    expect(noReason.statusCode).toBe(400);

    expect(
      (await decideOn(mod.client, meme.id, 'hide', 'spam link in the image')).json(),
    ).toMatchObject({
      settledReports: 1,
    });
    expect((await page()).statusCode).toBe(404);
    const resolved = (
      await mod.client.request('GET', `${consolePaths.reports}?status=resolved`)
    ).json();
    expect(resolved.entries[0]).toMatchObject({
      meme: { id: meme.id, hidden: true },
      decision: { kind: 'hide', operator: mod.user.username, reason: 'spam link in the image' },
    });
    const open = (await mod.client.request('GET', consolePaths.reports)).json();
    expect(open.entries.some((e: { meme: { id: number } }) => e.meme.id === meme.id)).toBe(false);

    expect(
      (await decideOn(mod.client, meme.id, 'unhide', 'context makes it fine')).statusCode,
    ).toBe(200);
    expect((await page()).statusCode).toBe(200);
    expect((await decideOn(mod.client, meme.id, 'dismiss', 'reports were wrong')).statusCode).toBe(
      200,
    );
    expect((await decideOn(mod.client, meme.id, 'delete', 'stolen picture')).statusCode).toBe(200);
    expect((await page()).statusCode).toBe(404);
    const gone = await decideOn(mod.client, meme.id, 'hide');
    expect(gone.statusCode).toBe(404);

    const log = await listDecisions(t.app.deps.db, { targetId: String(meme.id), limit: 10 });
    expect(log.map((e) => [e.kind, e.reason])).toEqual([
      ['delete', 'stolen picture'],
      ['dismiss', 'reports were wrong'],
      ['unhide', 'context makes it fine'],
      ['hide', 'spam link in the image'],
    ]);
    for (const entry of log) {
      expect(entry).toMatchObject({
        operatorId: mod.user.id,
        operatorName: mod.user.username,
        operatorAddress: '203.0.113.44',
        targetType: 'meme',
        targetLabel: 'To be judged',
      });
    }
  });

  it("a deleted meme's resolved entries keep its uploader, the reasons and the report times", async () => {
    const mod = await operator(t, 'moderator', { passkey: true });
    const { meme, uploader } = await reportedMeme('Deleted with reports', [
      'spam',
      'hateful',
      'spam',
    ]);
    const reportedAt = t.clock.now();
    t.clock.advance(60_000);
    expect((await decideOn(mod.client, meme.id, 'hide', 'hidden first')).statusCode).toBe(200);
    await TestClient.inject(t.app, '198.18.9.77').request(
      'POST',
      pathTo(memePaths.report, { id: meme.id }),
      { body: { reason: 'other' } },
    );
    // Hidden memes take no reports: the delete settles none, the hide settled three.
    expect((await decideOn(mod.client, meme.id, 'delete', 'stolen picture')).statusCode).toBe(200);
    const resolved = (
      await mod.client.request('GET', `${consolePaths.reports}?status=resolved`)
    ).json();
    const hide = resolved.entries.find(
      (e: { meme: { id: number }; decision: { kind: string } }) =>
        e.meme.id === meme.id && e.decision.kind === 'hide',
    );
    expect(hide).toMatchObject({
      meme: { title: 'Deleted with reports', deleted: true, uploader: uploader.username },
      reports: 3,
      reasons: { spam: 2, hateful: 1 },
      decision: { kind: 'hide', operator: mod.user.username, reason: 'hidden first' },
    });
    expect([hide.firstReportAt, hide.lastReportAt]).toEqual([reportedAt, reportedAt]);
  });

  it('each decision reaches the open pages as a meme event, and the gallery they refetch shows it', async () => {
    const mod = await operator(t, 'moderator', { passkey: true });
    const { meme } = await reportedMeme('Judged live', ['spam']);
    const visitor = TestClient.inject(t.app);
    const listed = async () =>
      (await visitor.request('GET', memePaths.list))
        .json<{ id: number }[]>()
        .some((m) => m.id === meme.id);
    const reader = await EventStreamReader.open(`${await t.listen()}${LIVE_EVENTS_PATH}`);
    const change = (id: number, change: string) => (e: { type: string; data: unknown }) =>
      e.type === 'meme' &&
      (e.data as { id: number }).id === id &&
      (e.data as { change: string }).change === change;
    for (const [decision, announced, shown] of [
      ['hide', 'hidden', false],
      ['unhide', 'unhidden', true],
      ['delete', 'deleted', false],
    ] as const) {
      // Read first, so the node holds the list in its cache when the decision lands.
      expect(await listed()).toBe(!shown);
      const from = reader.events.length;
      expect((await decideOn(mod.client, meme.id, decision)).statusCode).toBe(200);
      await reader.next(change(meme.id, announced), 2_000, from);
      expect(await listed(), decision).toBe(shown);
    }
    reader.close();
  });

  it('the CLI decides through the same service and lands in the same log', async () => {
    const { meme } = await reportedMeme('CLI judged', ['sexual']);
    const run = await runAdminIn(t, ['memes:hide', String(meme.id), '--reason', 'nsfw']);
    expect(run.code, run.text).toBe(0);
    const [entry] = await listDecisions(t.app.deps.db, { targetId: String(meme.id), limit: 1 });
    expect(entry).toMatchObject({
      kind: 'hide',
      reason: 'nsfw',
      operatorAddress: 'cli',
      operatorId: null,
    });
    const mod = await operator(t, 'moderator', { passkey: true });
    const log = (await mod.client.request('GET', `${consolePaths.log}?kind=hide`)).json();
    expect(log.entries.some((e: { targetId: string }) => e.targetId === String(meme.id))).toBe(
      true,
    );
  });
});
