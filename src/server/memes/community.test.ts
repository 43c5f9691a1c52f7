import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Meme } from '#shared/api/memes.ts';
import { hotRank } from '#shared/meme-ranking.ts';
import { createTestApp, uniqueName, type TestApp } from '#test-support/test-app.ts';
import { TestClient } from '#test-support/test-client.ts';
import { databaseKinds } from '#test-support/test-database.ts';
import {
  allPages,
  distinctPng,
  listPage,
  postMeme,
  processedImage,
  seedMemes,
} from '#test-support/gallery.ts';
import { memeCliCommands, type MemeCliContext } from './cli-commands.ts';
import { REPORTER_MIN_AGE_MS, REPORTS_TO_HIDE } from './moderation.ts';
import { castVote } from './repository.ts';
import { SNAPSHOT_TTL_MS } from './service.ts';
import { READ_CACHE_TTL_MS } from '../http/read-cache.ts';
import { NEW_ACCOUNT_MEMES, NEW_ACCOUNT_PERIOD_MS } from './upload-slots.ts';
import { memePaths, pathTo } from '#shared/api/paths.ts';
import { scratchClientDist } from '#test-support/scratch.ts';

const { distDir, remove } = scratchClientDist('grind-memes-');
afterAll(remove);

describe.each(databaseKinds)('gallery community features on %s', (kind) => {
  let t: TestApp;
  let member: TestClient;
  let memberId: number;

  beforeEach(async () => {
    t = await createTestApp(kind, {
      clientDistDir: distDir,
      publicOrigin: 'https://grind.example',
    });
    member = TestClient.inject(t.app);
    memberId = (await member.register(uniqueName('crowd'))).id;
  });
  afterEach(async () => t?.close());

  let voters = 0;
  /** New voters' votes, as other nodes would cast them. */
  const votes = async (id: number, up: number, down = 0) => {
    for (let i = 0; i < up + down; i++) {
      await castVote(t.app.deps.db, {
        memeId: id,
        voter: `v:voter-${++voters}`,
        voteType: i < up ? 'up' : 'down',
        now: t.clock.now(),
      });
    }
  };

  describe('the list contract (src/shared/api/memes.ts)', () => {
    it('answers a JSON array, with the next page in a Link header and none on the last page', async () => {
      await seedMemes(t.app, 5, { userId: memberId });
      const res = await TestClient.inject(t.app).request(
        'GET',
        `${memePaths.list}?limit=2&category=all`,
      );
      expect(res.statusCode).toBe(200);
      const body = res.json<Meme[]>();
      expect(Array.isArray(body)).toBe(true);
      expect(body.map((m) => m.title)).toEqual(['Seeded meme 5', 'Seeded meme 4']);
      expect(res.headers.link).toBe(`</api/memes?limit=2&cursor=${body[1]!.id}>; rel="next"`);
      const last = await TestClient.inject(t.app).request('GET', `${memePaths.list}?limit=5`);
      expect(last.headers.link).toBeUndefined();
    });
  });

  describe('sorting', () => {
    it('ranks Top of the week by score, only the last seven days, with the category filter', async () => {
      const [old] = await seedMemes(t.app, 1, { userId: memberId, category: () => 'overtime' });
      await votes(old!, 9);
      t.clock.advance(8 * 24 * 3_600_000);
      const [a, b, c, d] = await seedMemes(t.app, 4, {
        userId: memberId,
        category: (i) => (i === 3 ? 'coffee-culture' : 'overtime'),
      });
      await votes(a!, 1);
      await votes(b!, 3, 1);
      await votes(c!, 0, 2);
      await votes(d!, 5);
      const visitor = TestClient.inject(t.app);
      const ids = (memes: Meme[]) => memes.map((m) => m.id);
      expect(ids(await allPages(visitor, `${memePaths.list}?sort=top&limit=2`))).toEqual([
        d,
        b,
        a,
        c,
      ]);
      expect(ids(await allPages(visitor, `${memePaths.list}?sort=top&category=overtime`))).toEqual([
        b,
        a,
        c,
      ]);
    });

    it("ranks Hot by Lemmy's formula: a fresh meme outranks an older one with more votes", async () => {
      const [older] = await seedMemes(t.app, 1, { userId: memberId });
      await votes(older!, 6);
      t.clock.advance(10 * 3_600_000);
      const [fresh, flop] = await seedMemes(t.app, 2, { userId: memberId });
      await votes(flop!, 0, 4);
      // 10 hours at +6 against new at 0: log10(9)/12^1.8 = 0.011 < log10(3)/2^1.8 = 0.137.
      expect(hotRank(6, 0, 10 * 3_600_000)).toBeLessThan(hotRank(0, 0, 0));
      const page = await listPage(TestClient.inject(t.app), `${memePaths.list}?sort=hot`);
      expect(page.memes.map((m) => m.id)).toEqual([fresh, older, flop]);
    });

    it.each(['top', 'hot'] as const)(
      'pages %s from a snapshot: votes and time between pages never repeat or skip a card',
      async (sort) => {
        const ids = await seedMemes(t.app, 30, { userId: memberId });
        for (const [i, id] of ids.entries()) await votes(id, i % 7);
        const visitor = TestClient.inject(t.app);
        const first = await listPage(visitor, `${memePaths.list}?sort=${sort}&limit=10`);
        expect(first.next).toMatch(
          new RegExp(`^/api/memes\\?sort=${sort}&limit=10&cursor=\\d+-10$`),
        );
        // While the visitor reads page one, the last cards get many votes and hours pass.
        for (const id of ids.slice(0, 5)) await votes(id, 20);
        t.clock.advance(5 * 3_600_000);
        const seen = [...first.memes];
        for (let next = first.next; next;) {
          const page = await listPage(visitor, next);
          seen.push(...page.memes);
          next = page.next;
        }
        expect(seen).toHaveLength(30);
        expect(new Set(seen.map((m) => m.id)).size).toBe(30);
        // The cards show today's counts, though the order is the snapshot's.
        expect(seen.find((m) => m.id === ids[0])!.upvotes).toBe(20);
        // A new reader sees the new order (the snapshot is shared for a minute only).
        t.clock.advance(61_000);
        const fresh = await listPage(
          TestClient.inject(t.app),
          `${memePaths.list}?sort=${sort}&limit=5`,
        );
        expect(fresh.memes.map((m) => m.id)).toEqual([...ids.slice(0, 5)].reverse());
        // An expired snapshot's cursor is refused with a clear message.
        // (The node's page cache may serve its copy once more while it reloads.)
        t.clock.advance(SNAPSHOT_TTL_MS);
        await expect
          .poll(async () => (await visitor.request('GET', first.next!)).json(), { timeout: 2000 })
          .toMatchObject({ code: 'CURSOR_EXPIRED' });
      },
    );
  });

  describe('reports and the moderation queue', () => {
    it('hides a meme after three distinct reporters, queues it, and records each decision', async () => {
      expect(REPORTS_TO_HIDE).toBe(3);
      const meme = await postMeme(t.app, member, { title: 'Reported <b>meme</b>' });
      const report = (client: TestClient, reason: string) =>
        client.request('POST', pathTo(memePaths.report, { id: meme.id }), { body: { reason } });

      const first = TestClient.inject(t.app, '192.0.2.10');
      expect((await report(first, 'spam')).statusCode).toBe(200);
      expect(await report(first, 'spam')).toMatchObject({ statusCode: 409 });
      // The same visitor with a fresh cookie is still one reporter (visitors count by address).
      expect((await report(TestClient.inject(t.app, '192.0.2.10'), 'hateful')).statusCode).toBe(
        409,
      );
      expect((await report(TestClient.inject(t.app), 'bogus')).statusCode).toBe(400);
      // The owner's account is new: its report is filed, but does not count towards hiding.
      expect((await report(member, 'hateful')).statusCode).toBe(200);
      expect((await report(member, 'hateful')).json()).toEqual({
        message: 'You have already reported this meme.',
        code: 'ALREADY_REPORTED',
      });
      const visitor = TestClient.inject(t.app);
      const shown = async () => (await listPage(visitor, memePaths.list)).memes.map((m) => m.id);
      expect((await report(TestClient.inject(t.app, '192.0.2.11'), 'other')).statusCode).toBe(200);
      expect(await shown()).toEqual([meme.id]);
      expect((await report(TestClient.inject(t.app, '192.0.2.12'), 'spam')).statusCode).toBe(200);
      // Three distinct networks: hidden at once, from the list, its API and its page.
      expect((await listPage(visitor, memePaths.list)).memes).toEqual([]);
      expect(
        (await visitor.request('GET', pathTo(memePaths.one, { id: meme.id }))).statusCode,
      ).toBe(404);
      expect((await report(TestClient.inject(t.app, '192.0.2.13'), 'spam')).statusCode).toBe(404);

      const output: string[] = [];
      const ctx: MemeCliContext = {
        db: t.app.deps.db,
        objectStore: t.app.deps.objectStore!,
        clock: t.clock,
        print: (line) => output.push(line),
      };
      const run = (name: string, ...args: string[]) => memeCliCommands[name]!.run(ctx, args);
      expect(await run('memes:queue')).toBe(0);
      expect(output[1]).toMatch(
        new RegExp(`^\\s+${meme.id}\\s+4  hidden .*"Reported <b>meme</b>"$`),
      );
      expect(output[2]).toBe(
        '        reasons: Spam or advertising x2, Hateful or harassing x1, Something else x1',
      );

      output.length = 0;
      expect(await run('memes:dismiss', String(meme.id))).toBe(0);
      expect(output[0]).toMatch(/is now shown, its reports dismissed; 4 report\(s\) settled/);
      // The operator's decision reaches the node's lists once the read cache's second is over
      // (011: the first read after it may still get the old page while the reload runs).
      t.clock.advance(READ_CACHE_TTL_MS + 1);
      await expect
        .poll(async () => (await listPage(visitor, memePaths.list)).memes.map((m) => m.id))
        .toEqual([meme.id]);
      output.length = 0;
      await run('memes:queue');
      expect(output).toEqual(['No reports waiting.']);

      // New reports after a dismissal count afresh.
      expect((await report(TestClient.inject(t.app, '192.0.2.14'), 'sexual')).statusCode).toBe(200);
      expect(await run('memes:hide', String(meme.id))).toBe(0);
      t.clock.advance(READ_CACHE_TTL_MS + 1);
      await expect.poll(async () => (await listPage(visitor, memePaths.list)).memes).toEqual([]);
      expect(await run('memes:delete', String(meme.id))).toBe(0);
      expect(await run('memes:delete', String(meme.id))).toBe(1);

      const decisions = await t.app.deps.db
        .selectFrom('meme_decisions')
        .select(['meme_id', 'meme_title', 'decision', 'open_reports'])
        .orderBy('id')
        .execute();
      expect(decisions).toEqual([
        { meme_id: meme.id, meme_title: meme.title, decision: 'dismiss', open_reports: 4 },
        { meme_id: meme.id, meme_title: meme.title, decision: 'hide', open_reports: 1 },
        { meme_id: meme.id, meme_title: meme.title, decision: 'delete', open_reports: 0 },
      ]);
    });

    it('limits reports per address and says when to come back', async () => {
      const ids = await seedMemes(t.app, 21, { userId: memberId });
      const statuses: number[] = [];
      for (const id of ids) {
        const res = await TestClient.inject(t.app, '192.0.2.50').request(
          'POST',
          pathTo(memePaths.report, { id }),
          { body: { reason: 'spam' } },
        );
        statuses.push(res.statusCode);
        if (res.statusCode === 429) expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
      }
      expect(statuses.filter((s) => s === 200)).toHaveLength(20);
      expect(statuses.at(-1)).toBe(429);
    });
    /** A member registered from `ip` who has posted a meme and waited a day: counts. */
    async function establishedMember(ip: string, prefix: string): Promise<TestClient> {
      const client = TestClient.inject(t.app, ip);
      await client.register(uniqueName(prefix));
      await postMeme(t.app, client, { title: `${prefix}'s own` });
      return client;
    }
    const reportOn =
      (id: number) =>
      (client: TestClient, reason = 'spam') =>
        client.request('POST', pathTo(memePaths.report, { id }), { body: { reason } });
    const isShown = async (id: number) =>
      (await TestClient.inject(t.app).request('GET', pathTo(memePaths.one, { id }))).statusCode ===
      200;

    it('counts members and visitors behind one address as one reporter', async () => {
      const first = await establishedMember('203.0.113.5', 'house1');
      const second = await establishedMember('203.0.113.5', 'house2');
      const [id] = await seedMemes(t.app, 1, { userId: memberId });
      t.clock.advance(REPORTER_MIN_AGE_MS);
      const report = reportOn(id!);
      expect((await report(first)).statusCode).toBe(200);
      expect((await report(second)).statusCode).toBe(200);
      expect((await report(TestClient.inject(t.app, '203.0.113.5'))).statusCode).toBe(200);
      // Three reports, one network: the meme stays up.
      expect(await isShown(id!)).toBe(true);
      // One IPv6 subscriber is one network too, whichever of its /64s it reports from.
      expect((await report(TestClient.inject(t.app, '2001:db8:7:1::1'))).statusCode).toBe(200);
      const sameSubscriber = await report(TestClient.inject(t.app, '2001:db8:7:2::1'));
      expect(sameSubscriber.json()).toEqual({
        message: 'This meme has already been reported from your network.',
        code: 'ALREADY_REPORTED',
      });
      expect(await isShown(id!)).toBe(true);
      expect((await report(TestClient.inject(t.app, '198.51.100.5'))).statusCode).toBe(200);
      expect(await isShown(id!)).toBe(false);
    });

    it("files new and idle accounts' reports for the queue, but they hide nothing", async () => {
      const [id] = await seedMemes(t.app, 1, { userId: memberId });
      const report = reportOn(id!);
      const idle = TestClient.inject(t.app, '198.51.100.21');
      await idle.register(uniqueName('idle'));
      const player = TestClient.inject(t.app, '198.51.100.22');
      const playerId = (await player.register(uniqueName('player'))).id;
      const poster = await establishedMember('198.51.100.23', 'poster');
      t.clock.advance(REPORTER_MIN_AGE_MS - 60_000);
      // A day old but for a minute: even an account that has posted does not count yet.
      expect((await report(poster)).statusCode).toBe(200);
      t.clock.advance(60_000);
      const fresh = TestClient.inject(t.app, '198.51.100.24');
      await fresh.register(uniqueName('fresh'));
      expect((await report(fresh)).statusCode).toBe(200);
      expect((await report(idle)).statusCode).toBe(200);
      // Four reports from four networks, none counted: still shown, all four in the queue.
      expect(await isShown(id!)).toBe(true);
      const output: string[] = [];
      await memeCliCommands['memes:queue']!.run(
        {
          db: t.app.deps.db,
          objectStore: t.app.deps.objectStore!,
          clock: t.clock,
          print: (line) => output.push(line),
        },
        [],
      );
      expect(output[1]).toMatch(new RegExp(`^\\s+${id}\\s+3  shown `));

      // A round played to its end makes an account a day old count; so does a meme posted.
      await t.app.deps.db
        .insertInto('game_runs')
        .values({
          id: 'played-run',
          seed: 1,
          user_id: playerId,
          issued_at: t.clock.now(),
          verified_at: t.clock.now(),
        })
        .execute();
      expect((await report(player)).statusCode).toBe(200);
      const other = await establishedMember('198.51.100.25', 'other');
      t.clock.advance(REPORTER_MIN_AGE_MS);
      expect((await report(other)).statusCode).toBe(200);
      expect(await isShown(id!)).toBe(true);
      expect((await report(TestClient.inject(t.app, '198.51.100.26'))).statusCode).toBe(200);
      expect(await isShown(id!)).toBe(false);
    });

    it("tells the owner of a meme hidden by reports that it waits for review, and only the operator's removal refuses the picture", async () => {
      const bytes = await distinctPng();
      const meme = await postMeme(t.app, member, { bytes, title: 'Under review' });
      const report = reportOn(meme.id);
      for (const ip of ['192.0.2.31', '192.0.2.32', '192.0.2.33']) {
        expect((await report(TestClient.inject(t.app, ip))).statusCode).toBe(200);
      }
      expect(await isShown(meme.id)).toBe(false);
      const again = (client: TestClient) =>
        processedImage(t.app, client, bytes).catch((error: Error) => error.message);
      expect(await again(member)).toBe(
        'process: 409 {"message":"Your meme with this picture is hidden while the moderators review reports about it. It comes back to the gallery if they find nothing wrong.","code":"MEME_UNDER_REVIEW"}',
      );
      const other = TestClient.inject(t.app, '192.0.2.34');
      await other.register(uniqueName('copier'));
      expect(await again(other)).toBe(
        'process: 409 {"message":"This picture is waiting for a moderator to review it. Please try again later.","code":"MEME_UNDER_REVIEW"}',
      );
      // The owner is not held up otherwise: a new picture posts.
      await postMeme(t.app, member, { title: 'Something else' });

      const ctx: MemeCliContext = {
        db: t.app.deps.db,
        objectStore: t.app.deps.objectStore!,
        clock: t.clock,
        print: () => {},
      };
      const run = (name: string) => memeCliCommands[name]!.run(ctx, [String(meme.id)]);
      expect(await run('memes:dismiss')).toBe(0);
      expect(await again(member)).toBe(
        `process: 409 {"message":"This meme is already in the gallery: /memes/${meme.id}","code":"DUPLICATE_MEME"}`,
      );
      const removed =
        'process: 409 {"message":"This picture has been removed from the gallery and cannot be posted again.","code":"DUPLICATE_MEME"}';
      expect(await run('memes:hide')).toBe(0);
      expect(await again(member)).toBe(removed);
      expect(await run('memes:delete')).toBe(0);
      expect(await again(member)).toBe(removed);
      expect(await again(other)).toBe(removed);
    });
  });

  describe('upload slots', () => {
    it(`lets a new account post ${NEW_ACCOUNT_MEMES} memes on its first day, then says when it may post more`, async () => {
      for (let i = 0; i < NEW_ACCOUNT_MEMES; i++) await postMeme(t.app, member);
      const ready = await processedImage(t.app, member).catch((error: Error) => error);
      expect(ready).toBeInstanceOf(Error);
      expect((ready as Error).message).toContain('process: 429');
      expect((ready as Error).message).toContain(
        `New accounts can post ${NEW_ACCOUNT_MEMES} memes a day. You can post more from `,
      );
      t.clock.advance(NEW_ACCOUNT_PERIOD_MS);
      await postMeme(t.app, member);
    });

    it('refuses the post itself too, with Retry-After, when slots ran out after processing', async () => {
      const images = [];
      for (let i = 0; i <= NEW_ACCOUNT_MEMES; i++) images.push(await processedImage(t.app, member));
      const statuses = [];
      for (const imageUrl of images) {
        const res = await member.request('POST', memePaths.create, {
          body: { title: 'Slot', category: 'overtime', imageUrl },
        });
        statuses.push(res.statusCode);
        if (res.statusCode === 429) {
          const wait = Number(res.headers['retry-after']);
          expect(wait).toBeGreaterThan(0);
          expect(wait).toBeLessThanOrEqual(NEW_ACCOUNT_PERIOD_MS / 1000);
        }
      }
      expect(statuses).toEqual([201, 201, 201, 429]);
    });
  });

  describe('the meme page', () => {
    it("carries the meme's card tags, escaped and absolute, and is a 404 once hidden", async () => {
      const meme = await postMeme(t.app, member, { title: 'Boss says "<script>" & leaves' });
      // As a preview bot fetches it: plain HTML, no script run.
      const res = await t.app.inject({ method: 'GET', url: `/memes/${meme.id}` });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
      const html = res.body;
      const escaped = 'Boss says &quot;&lt;script&gt;&quot; &amp; leaves';
      expect(html).not.toContain('<script>"');
      expect(html).toContain(`<meta property="og:title" content="${escaped}" />`);
      expect(html).toContain(
        `<meta property="og:url" content="https://grind.example/memes/${meme.id}" />`,
      );
      expect(html).toContain(
        `<meta property="og:image" content="https://grind.example${meme.imageUrl}" />`,
      );
      expect(html).toContain('<meta property="og:image:width" content="48" />');
      expect(html).toContain('<meta property="og:image:height" content="32" />');
      expect(html).toContain('<meta name="twitter:card" content="summary_large_image" />');
      expect(html).toContain(`<h1>${escaped}</h1>`);
      // The site's own tags are replaced, not doubled.
      expect(html.match(/property="og:title"/g)).toHaveLength(1);
      expect(html.match(/<title>/g)).toHaveLength(1);

      await t.app.deps.db
        .updateTable('memes')
        .set({ hidden: 1 })
        .where('id', '=', meme.id)
        .execute();
      const gone = await t.app.inject({ method: 'GET', url: `/memes/${meme.id}` });
      expect(gone.statusCode).toBe(404);
      expect(gone.body).not.toContain(escaped);
      expect(gone.body).not.toContain(`/memes/${meme.id}"`);
      for (const url of ['/memes/999999', '/memes/abc', '/memes/99999999999']) {
        expect((await t.app.inject({ method: 'GET', url })).statusCode).toBe(404);
      }
    });

    it("takes the request's own origin when PUBLIC_ORIGIN is not set", async () => {
      await t.close();
      t = await createTestApp(kind, { clientDistDir: distDir, publicOrigin: undefined });
      member = TestClient.inject(t.app);
      await member.register(uniqueName('origin'));
      const meme = await postMeme(t.app, member);
      const res = await t.app.inject({
        method: 'GET',
        url: `/memes/${meme.id}`,
        headers: { host: 'memes.test:8080' },
      });
      expect(res.body).toContain(
        `<meta property="og:url" content="http://memes.test:8080/memes/${meme.id}" />`,
      );
    });
  });
});
