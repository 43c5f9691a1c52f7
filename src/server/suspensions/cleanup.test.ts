import { describe, expect, it } from 'vitest';
import { consolePaths } from '#shared/api/console/common.ts';
import { memePaths, pathTo } from '#shared/api/paths.ts';
import { suiteApp, uniqueName } from '#test-support/test-app.ts';
import { TestClient } from '#test-support/test-client.ts';
import { databaseKinds } from '#test-support/test-database.ts';
import { operator } from '#test-support/operators.ts';
import { seedMemes } from '#test-support/gallery.ts';
import { listDecisions } from '../db/operator-log.ts';

describe.each(databaseKinds)("a suspension's clean-up on %s", (kind) => {
  const t = suiteApp(kind, { publicOrigin: 'http://localhost:3000' });

  it('hides the memes, takes off the votes and reports in one decision, and a lift with restore puts them back', async () => {
    const moderator = await operator(t, 'moderator', { passkey: true });
    const spammer = TestClient.inject(t.app, '198.51.100.80');
    const user = await spammer.register(uniqueName('spammer'));
    const own = await seedMemes(t.app, 2, { userId: user.id });
    const [other] = await seedMemes(t.app, 1, { userId: moderator.user.id });
    const vote = await spammer.request('POST', pathTo(memePaths.vote, { id: other! }), {
      body: { voteType: 'up' },
    });
    expect(vote.json().upvotes).toBe(1);
    await spammer.request('POST', pathTo(memePaths.report, { id: other! }), {
      body: { reason: 'spam' },
    });
    const shown = async (id: number) =>
      (await TestClient.inject(t.app).request('GET', pathTo(memePaths.one, { id }))).json();
    const path = (p: string) => p.replace(':username', user.username);

    const suspended = await moderator.client.request('POST', path(consolePaths.suspend), {
      body: { length: 'week', reason: 'flooding the gallery', cleanUp: true },
    });
    expect(suspended.json().cleanedUp).toEqual({ memes: 2, votes: 1, reports: 1 });
    expect((await shown(own[0]!)).code).toBe('NOT_FOUND');
    expect((await shown(other!)).upvotes).toBe(0);
    const open = await t.app.deps.db
      .selectFrom('meme_reports')
      .select('reporter')
      .where('meme_id', '=', other!)
      .execute();
    expect(open).toEqual([]);

    const lifted = await moderator.client.request('POST', path(consolePaths.lift), {
      body: { reason: 'it was a friend of theirs', restore: true },
    });
    expect(lifted.json()).toEqual({ lifted: 1, restored: { memes: 2, votes: 1, reports: 1 } });
    expect((await shown(own[1]!)).id).toBe(own[1]);
    expect((await shown(other!)).upvotes).toBe(1);
    const log = await listDecisions(t.app.deps.db, { targetId: String(user.id), limit: 5 });
    expect(log.map((e) => [e.kind, e.details.cleanUp ?? e.details.restored])).toEqual([
      ['lift', { memes: 2, votes: 1, reports: 1 }],
      ['suspend', { memes: 2, votes: 1, reports: 1 }],
    ]);
  });
});
