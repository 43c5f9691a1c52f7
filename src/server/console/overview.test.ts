import { describe, expect, it } from 'vitest';
import { consolePaths } from '#shared/api/console/common.ts';
import { memePaths, pathTo } from '#shared/api/paths.ts';
import { postMeme } from '#test-support/gallery.ts';
import { operator } from '#test-support/operators.ts';
import { suiteApp, uniqueName } from '#test-support/test-app.ts';
import { TestClient } from '#test-support/test-client.ts';
import { databaseKinds } from '#test-support/test-database.ts';

const DAY_MS = 24 * 60 * 60 * 1000;

describe.each(databaseKinds)('the console overview on %s', (kind) => {
  const t = suiteApp(kind, { publicOrigin: 'http://localhost:3000' });

  it('counts the last 30 days per day, today last, and the open reports', async () => {
    const client = TestClient.inject(t.app);
    await client.register(uniqueName('day1'));
    const meme = await postMeme(t.app, client, { title: 'Counted' });
    t.clock.advance(DAY_MS);
    await TestClient.inject(t.app).register(uniqueName('day2'));
    await TestClient.inject(t.app, '198.18.70.1').request(
      'POST',
      pathTo(memePaths.vote, { id: meme.id }),
      {
        body: { voteType: 'up' },
      },
    );
    await TestClient.inject(t.app, '198.18.70.2').request(
      'POST',
      pathTo(memePaths.report, { id: meme.id }),
      {
        body: { reason: 'spam' },
      },
    );
    const mod = await operator(t, 'moderator', { passkey: true });
    const body = (await mod.client.request('GET', consolePaths.overview)).json();
    expect(body.days).toHaveLength(30);
    expect(body.days[29]).toBe(Math.floor(t.clock.now() / DAY_MS) * DAY_MS);
    // Today: the second member and the moderator, the vote, the report; yesterday: a member and a meme.
    expect(body.series.members.slice(-2)).toEqual([1, 2]);
    expect(body.series.memes.slice(-2)).toEqual([1, 0]);
    expect(body.series.votes.slice(-1)).toEqual([1]);
    expect(body.series.reports.slice(-1)).toEqual([1]);
    expect(body.openReports).toBe(1);
  });

  it('counts what happened: a meme deleted since, its report, and a vote taken back still count', async () => {
    const mod = await operator(t, 'moderator', { passkey: true });
    const today = async () => {
      const { series } = (await mod.client.request('GET', consolePaths.overview)).json();
      return {
        memes: series.memes.at(-1),
        votes: series.votes.at(-1),
        reports: series.reports.at(-1),
      };
    };
    const before = await today();
    // Six memes from two new members (a new account posts three a day).
    const memes: { id: number }[] = [];
    for (const name of ['six', 'more']) {
      const member = TestClient.inject(t.app);
      await member.register(uniqueName(name));
      for (let i = 0; i < 3; i++)
        memes.push(await postMeme(t.app, member, { title: `${name} ${i}` }));
    }
    const voter = TestClient.inject(t.app, '198.18.71.1');
    const vote = () =>
      voter.request('POST', pathTo(memePaths.vote, { id: memes[0]!.id }), {
        body: { voteType: 'up' },
      });
    expect((await vote()).json().myVote).toBe('up');
    // The same vote again takes it back.
    expect((await vote()).json().myVote).toBeNull();
    await TestClient.inject(t.app, '198.18.71.2').request(
      'POST',
      pathTo(memePaths.report, { id: memes[1]!.id }),
      { body: { reason: 'spam' } },
    );
    const deleted = await mod.client.request(
      'POST',
      pathTo(consolePaths.memeDecision, { id: memes[1]!.id }),
      {
        body: { decision: 'delete', reason: 'stolen picture' },
      },
    );
    expect(deleted.statusCode).toBe(200);
    expect(await today()).toEqual({
      memes: before.memes + 6,
      votes: before.votes + 1,
      reports: before.reports + 1,
    });
  });
});
