import { solveChallenge, type Challenge } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/pbkdf2';
import { describe, expect, it } from 'vitest';
import { authPaths, memePaths, pathTo } from '#shared/api/paths.ts';
import { consolePaths } from '#shared/api/console/common.ts';
import { raidPaths } from '#shared/api/raid.ts';
import { DAY_MS, MINUTE_MS } from '#shared/time.ts';
import { standingOf } from '#shared/standing.ts';
import { suiteApp, uniqueName, type TestApp } from '#test-support/test-app.ts';
import { TestClient } from '#test-support/test-client.ts';
import { databaseKinds } from '#test-support/test-database.ts';
import { operator } from '#test-support/operators.ts';
import { runAdminIn } from '#test-support/admin-cli.ts';
import { postMeme, processedImage, seedMemes } from '#test-support/gallery.ts';
import { listDecisions } from '../db/operator-log.ts';
import { checkRaidTrigger } from './service.ts';

describe('standingOf', () => {
  const now = Date.UTC(2026, 10, 20);
  const facts = { finishedRuns: 0, memesUp: 0, upheldReports: 0, provenWallet: false };
  it('is new under a day or with nothing done, member with a day and a run or a meme up', () => {
    expect(standingOf({ ...facts, createdAt: now - DAY_MS + 1, memesUp: 5 }, now).level).toBe(
      'new',
    );
    expect(standingOf({ ...facts, createdAt: now - 30 * DAY_MS }, now).level).toBe('new');
    expect(standingOf({ ...facts, createdAt: now - DAY_MS, finishedRuns: 1 }, now).level).toBe(
      'member',
    );
  });
  it('is trusted after a week with several runs and memes kept, and never with an upheld report', () => {
    const week = { ...facts, createdAt: now - 7 * DAY_MS, finishedRuns: 3, memesUp: 3 };
    expect(standingOf(week, now).level).toBe('trusted');
    expect(standingOf({ ...week, upheldReports: 1 }, now).level).toBe('member');
    expect(standingOf({ ...week, memesUp: 2 }, now).level).toBe('member');
  });
});

/** A solved sign-up challenge, as the browser's ALTCHA solver sends it. */
async function solvedChallenge(client: TestClient): Promise<string> {
  const challenge = (await client.request('GET', raidPaths.challenge)).json<Challenge>();
  const solution = await solveChallenge({ challenge, deriveKey });
  return Buffer.from(JSON.stringify({ challenge, solution })).toString('base64');
}

/** A member a week old with three finished runs and three memes up: trusted. */
async function trustedMember(t: TestApp, ip: string): Promise<TestClient> {
  const client = TestClient.inject(t.app, ip);
  const user = await client.register(uniqueName('trusted'));
  const db = t.app.deps.db;
  await db
    .updateTable('users')
    .set({ created_at: t.clock.now() - 8 * DAY_MS })
    .where('id', '=', user.id)
    .execute();
  for (let i = 0; i < 3; i++) {
    await db
      .insertInto('game_runs')
      .values({
        id: `${user.username}-run-${i}`,
        seed: 1,
        user_id: user.id,
        issued_at: t.clock.now(),
        verified_at: t.clock.now(),
      })
      .execute();
  }
  await seedMemes(t.app, 3, { userId: user.id, now: t.clock.now() - 2 * DAY_MS });
  return client;
}

describe.each(databaseKinds)('raid day on %s', (kind) => {
  const t = suiteApp(kind, { publicOrigin: 'http://localhost:3000' });

  it('standing: shown to the member, and only a trusted member puts a link in a title', async () => {
    const fresh = TestClient.inject(t.app, '198.51.100.40');
    await fresh.register(uniqueName('fresh'));
    const mine = await fresh.request('GET', raidPaths.myStanding);
    expect(mine.json()).toMatchObject({
      standing: { level: 'new', provenWallet: false },
      allowance: { uploadsPerDay: 3, reportsCount: false, linksInTitles: false },
      raidMode: false,
    });
    const imageUrl = await processedImage(t.app, fresh);
    const link = await fresh.request('POST', memePaths.create, {
      body: { title: 'free airdrop at grind-drop.xyz', category: 'overtime', imageUrl },
    });
    expect(link.statusCode).toBe(403);
    expect(link.json().code).toBe('LINKS_NOT_ALLOWED');

    const trusted = await trustedMember(t, '198.51.100.41');
    expect((await trusted.request('GET', raidPaths.myStanding)).json().standing.level).toBe(
      'trusted',
    );
    const meme = await postMeme(t.app, trusted, { title: 'see grind.com/roadmap' });
    expect(meme.title).toBe('see grind.com/roadmap');
  });

  it('raid mode: switched in the console, refuses new accounts and visitor votes, challenges sign-ups, logged', async () => {
    const admin = await operator(t, 'admin', { passkey: true });
    const established = await trustedMember(t, '198.51.100.50');
    const newcomer = TestClient.inject(t.app, '198.51.100.51');
    await newcomer.register(uniqueName('newcomer'));
    // Posted two hours ago: raid mode holds only the last hour's memes from new accounts.
    const [memeId] = await seedMemes(t.app, 1, {
      userId: admin.user.id,
      now: t.clock.now() - 120 * MINUTE_MS,
    });
    const vote = (c: TestClient) =>
      c.request('POST', pathTo(memePaths.vote, { id: memeId! }), { body: { voteType: 'up' } });

    // The first wave, posted before the switch, is held with it.
    const early = await postMeme(t.app, newcomer, { title: 'first wave' });
    const on = await admin.client.request('POST', raidPaths.admin, {
      body: { active: true, reason: 'a crowd of new accounts' },
    });
    expect(on.statusCode).toBe(200);
    const earlyPage = pathTo(memePaths.one, { id: early.id });
    expect((await TestClient.inject(t.app).request('GET', earlyPage)).statusCode).toBe(404);
    expect((await newcomer.request('GET', earlyPage)).json().held).toBe(true);
    // The queue says raid mode held it, not the classifier.
    const queue = await admin.client.request('GET', consolePaths.reports);
    const held = queue.json().entries.find((e: { meme: { id: number } }) => e.meme.id === early.id);
    expect(held.meme).toMatchObject({ held: true, heldBy: 'raid' });
    expect(on.json()).toMatchObject({ active: true, automatic: false });
    expect((await TestClient.inject(t.app).request('GET', raidPaths.status)).json().active).toBe(
      true,
    );

    const refused = await newcomer.request('POST', memePaths.uploadTarget);
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toEqual({
      message: expect.stringContaining('raid mode'),
      code: 'RAID_MODE',
    });
    expect((await vote(newcomer)).json().code).toBe('RAID_MODE');
    const visitorVote = await vote(TestClient.inject(t.app, '198.51.100.52'));
    expect(visitorVote.statusCode).toBe(403);
    expect(visitorVote.json().message).toContain('visitor votes are paused');
    expect((await vote(established)).statusCode).toBe(200);

    const visitor = TestClient.inject(t.app, '198.51.100.53');
    const name = uniqueName('joiner');
    const bare = await visitor.request('POST', authPaths.register, {
      body: { username: name, password: 'password123' },
      csrf: false,
    });
    expect(bare.statusCode).toBe(403);
    expect(bare.json().code).toBe('CHALLENGE_REQUIRED');
    const altcha = await solvedChallenge(visitor);
    const signUp = (username: string) =>
      visitor.request('POST', authPaths.register, {
        body: { username, password: 'password123', altcha },
        csrf: false,
      });
    expect((await signUp(name)).statusCode).toBe(201);
    // A solution is spent once.
    expect((await signUp(uniqueName('again'))).json().code).toBe('CHALLENGE_REQUIRED');

    const off = await admin.client.request('POST', raidPaths.admin, {
      body: { active: false, reason: 'the crowd left' },
    });
    expect(off.json().active).toBe(false);
    expect((await vote(TestClient.inject(t.app, '198.51.100.52'))).statusCode).toBe(200);
    const log = await listDecisions(t.app.deps.db, { targetType: 'site', limit: 10 });
    expect(log.slice(0, 2).map((e) => [e.kind, e.operatorName, e.reason])).toEqual([
      ['raid-off', admin.user.username, 'the crowd left'],
      ['raid-on', admin.user.username, 'a crowd of new accounts'],
    ]);
  });

  it("counts a network's sign-up challenges before deriving one: 60 an hour, a /48 four times that", async () => {
    const ask = (ip: string) => TestClient.inject(t.app, ip).request('GET', raidPaths.challenge);
    for (let i = 0; i < 60; i++) expect((await ask('198.51.100.77')).statusCode).toBe(200);
    const refused = await ask('198.51.100.77');
    expect(refused.statusCode).toBe(429);
    expect(refused.json().code).toBe('RATE_LIMITED');
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect((await ask('198.51.100.78')).statusCode).toBe(200);
    // Walking the /64s of one /48: four /64s' allowances, then none.
    const answers = [];
    for (let i = 0; i < 5 * 60; i++) {
      answers.push((await ask(`2001:db8:77:${(i % 5).toString(16)}::1`)).statusCode);
    }
    expect(answers.filter((status) => status === 200)).toHaveLength(4 * 60);
  });

  it('raid mode turns itself on at the thresholds set in the CLI, and off after the quiet period', async () => {
    const set = await runAdminIn(t, [
      'raid:thresholds',
      '--signups',
      '3',
      '--quiet-minutes',
      '30',
      '--reason',
      'a small site',
    ]);
    expect(set.code).toBe(0);
    t.clock.advance(2 * 60 * MINUTE_MS);
    expect(await checkRaidTrigger(t.app.deps, t.clock.now())).toBeNull();
    for (let i = 0; i < 3; i++) {
      await TestClient.inject(t.app, `192.0.2.${60 + i}`).register(uniqueName('crowd'));
    }
    expect(await checkRaidTrigger(t.app.deps, t.clock.now())).toBe('entered');
    const [entered] = await listDecisions(t.app.deps.db, { kind: 'raid-on', limit: 1 });
    expect(entered).toMatchObject({ operatorName: 'auto:raid-trigger' });
    expect(entered!.reason).toContain('3 sign-ups in an hour (threshold 3)');
    // An hour later the sign-ups have left the window; 30 quiet minutes after that, it ends.
    t.clock.advance(61 * MINUTE_MS);
    expect(await checkRaidTrigger(t.app.deps, t.clock.now())).toBe('left');
    expect((await runAdminIn(t, ['raid:status'])).text).toContain('Raid mode is off.');
    await runAdminIn(t, ['raid:thresholds', '--signups', '60', '--reason', 'defaults again']);
  });
});
