import { READ_CACHE_LONGEST_MS } from '#server/http/read-cache.ts';
import { describe, expect, it } from 'vitest';
import type { Meme } from '#shared/api/memes.ts';
import { uniqueName, type TestApp } from '#test-support/test-app.ts';
import { appWithMemberPerTest } from '#test-support/member-app.ts';
import { TestClient } from '#test-support/test-client.ts';
import { databaseKinds } from '#test-support/test-database.ts';
import {
  distinctPng,
  listPage,
  postMeme,
  processedImage,
  seedMemes,
  setMemeHidden,
} from '#test-support/gallery.ts';
import { GALLERY_LIMITS } from './limits.ts';
import { castVote, findCountMismatches } from './repository.ts';
import { VISITOR_VOTES_PER_NETWORK } from './vote-rules.ts';
import { VISITOR_COOKIE } from './voter.ts';
import { memePaths, pathTo } from '#shared/api/paths.ts';

describe.each(databaseKinds)('memes API on %s', (kind) => {
  let t: TestApp;
  let member: TestClient;
  let memberId: number;

  appWithMemberPerTest(kind, { prefix: 'memer' }, (fresh) => ({ t, member, memberId } = fresh));

  const page = (client: TestClient, query = '') => listPage(client, `${memePaths.list}${query}`);

  async function vote(client: TestClient, id: number, voteType: string) {
    return client.request('POST', pathTo(memePaths.vote, { id }), { body: { voteType } });
  }

  describe('posting', () => {
    it('posts a meme from an image the member processed, title trimmed, newest first', async () => {
      const first = await postMeme(t.app, member, { title: 'First', category: 'coffee-culture' });
      t.clock.advance(1000);
      const imageUrl = await processedImage(t.app, member);
      const res = await member.request('POST', memePaths.create, {
        body: { title: '  Monday again  ', category: 'monday-motivation', imageUrl },
      });
      expect(res.statusCode).toBe(201);
      const { meme } = res.json<{ meme: Meme }>();
      expect(meme).toEqual({
        author: { username: expect.stringMatching(/^memer_/) },
        id: expect.any(Number),
        title: 'Monday again',
        category: 'monday-motivation',
        imageUrl,
        thumbnailUrl: expect.stringMatching(/^\/objects\/memes\/[0-9a-f]{64}-thumb\.webp$/),
        thumbnailWidth: 48,
        thumbnailHeight: 32,
        upvotes: 0,
        downvotes: 0,
        createdAt: new Date(t.clock.now()).toISOString(),
        myVote: null,
      });
      const visitor = TestClient.inject(t.app);
      const listed = await page(visitor);
      expect(listed.memes.map((m) => m.id)).toEqual([meme.id, first.id]);
      expect(listed.memes[0]).toEqual(meme);
      expect(listed.next).toBeNull();
      // Served straight away.
      expect((await visitor.request('GET', meme.thumbnailUrl)).statusCode).toBe(200);
    });

    it('lists a post made on this node at once, though the page was cached', async () => {
      const first = await postMeme(t.app, member, { title: 'First', category: 'coffee-culture' });
      const visitor = TestClient.inject(t.app);
      expect((await page(visitor)).memes.map((m) => m.id)).toEqual([first.id]);
      const second = await postMeme(t.app, member, { title: 'Second', category: 'success' });
      expect((await page(visitor)).memes.map((m) => m.id)).toEqual([second.id, first.id]);
    });

    it('lets a proxy keep a page nobody has voted on as long as a node does', async () => {
      const visitor = await TestClient.inject(t.app).request('GET', memePaths.list);
      expect(visitor.headers['cache-control']).toBe('public, max-age=0, s-maxage=1');
      expect(visitor.headers.vary).toMatch(/cookie/i);
      const own = await member.request('GET', memePaths.list);
      expect(own.headers['cache-control']).toBe('private, no-cache');
    });

    it('refuses visitors, bad titles, "all", and images that are not this member\'s unused ones', async () => {
      const imageUrl = await processedImage(t.app, member);
      const post = (client: TestClient, body: Record<string, unknown>) =>
        client.request('POST', memePaths.create, {
          body: { title: 'ok', category: 'success', imageUrl, ...body },
        });

      const visitor = TestClient.inject(t.app);
      expect((await post(visitor, {})).statusCode).toBe(401);
      const cases: [Record<string, unknown>, string][] = [
        [{ title: '   ' }, 'Title is required'],
        [{ title: 'x'.repeat(101) }, 'Title must be at most 100 characters'],
        [{ category: 'all' }, 'Choose one of the six categories'],
        [{ category: 'cats' }, 'Choose one of the six categories'],
        [{ imageUrl: 'https://example.com/cat.png' }, 'imageUrl must be an uploaded image'],
        [{ imageUrl: `/objects/memes/${'0'.repeat(64)}.jpg` }, 'Upload the image first'],
      ];
      for (const [body, message] of cases) {
        const res = await post(member, body);
        expect(res.statusCode, JSON.stringify(body)).toBe(400);
        expect(res.json<{ message: string }>().message).toContain(message);
      }
      expect((await post(member, { title: 'x'.repeat(100) })).statusCode).toBe(201);

      // Used once; another member cannot take it either.
      expect((await post(member, {})).statusCode).toBe(400);
      const other = TestClient.inject(t.app);
      await other.register(uniqueName('other'));
      expect((await post(other, {})).statusCode).toBe(400);
      expect((await page(member)).memes).toHaveLength(1);
    });

    it("refuses another member's upload of the same picture, linking the meme already there", async () => {
      const bytes = await distinctPng();
      const other = TestClient.inject(t.app);
      await other.register(uniqueName('twin'));
      const a = await postMeme(t.app, member, { bytes, title: 'Mine' });
      await expect(processedImage(t.app, other, bytes)).rejects.toThrow(
        `process: 409 {"message":"This meme is already in the gallery: /memes/${a.id}","code":"DUPLICATE_MEME"}`,
      );
    });
  });

  describe('listing', () => {
    it('filters by category, pages by the Link header, and never repeats or skips a card', async () => {
      const ids = await seedMemes(t.app, 60, { userId: memberId });
      const visitor = TestClient.inject(t.app);

      const first = await page(visitor);
      expect(first.memes).toHaveLength(24);
      expect(first.memes[0]!.id).toBe(ids[59]);
      expect(first.next).toBe(`${memePaths.list}?cursor=${ids[36]}`);

      // New uploads arrive while the visitor reads page one.
      await seedMemes(t.app, 5, { userId: memberId });
      const seen = first.memes.map((m) => m.id);
      for (let next = first.next; next;) {
        const more = await listPage(visitor, next);
        seen.push(...more.memes.map((m) => m.id));
        next = more.next;
      }
      expect((await page(visitor, '?limit=10&category=overtime')).next).toMatch(
        /^\/api\/memes\?category=overtime&limit=10&cursor=\d+$/,
      );
      expect(seen).toEqual([...ids].reverse());

      const office = await page(visitor, '?category=office-life&limit=50');
      expect(office.memes).toHaveLength(11);
      expect(office.memes.every((m) => m.category === 'office-life')).toBe(true);
      expect((await page(visitor, '?category=all&limit=50')).memes).toHaveLength(50);
      expect((await page(visitor, '?limit=50&cursor=1')).memes).toEqual([]);
    });

    it("shows a vote to its voter at once, to other readers one load later, and other nodes' within a second", async () => {
      const [id] = await seedMemes(t.app, 1, { userId: memberId });
      const reader = TestClient.inject(t.app);
      const voter = TestClient.inject(t.app);
      expect((await page(reader)).memes[0]).toMatchObject({ upvotes: 0 });
      await vote(voter, id!, 'up');
      // Other readers get the page from before the vote while one load replaces it ...
      expect((await page(reader)).memes[0]).toMatchObject({ upvotes: 0 });
      await expect
        .poll(async () => (await page(reader)).memes[0])
        .toMatchObject({ upvotes: 1, myVote: null });
      // ... but the voter never does: their next read has their vote counted.
      await vote(voter, id!, 'down');
      expect((await page(voter)).memes[0]).toMatchObject({
        upvotes: 0,
        downvotes: 1,
        myVote: 'down',
      });

      // Another node writes straight to the shared database: seen here once the page's second
      // is over (the first read after it may still get the old page, once) ...
      const elsewhere = (n: number) =>
        castVote(t.app.deps.db, {
          memeId: id!,
          voter: `v:elsewhere-${n}`,
          voteType: 'down',
          now: 0,
        });
      await elsewhere(1);
      expect((await page(reader)).memes[0]).toMatchObject({ downvotes: 1 });
      t.clock.advance(1001);
      await expect.poll(async () => (await page(reader)).memes[0]).toMatchObject({ downvotes: 2 });
      // ... and a page two seconds old is never served: on a quiet node the reader waits.
      await elsewhere(2);
      t.clock.advance(READ_CACHE_LONGEST_MS + 1);
      expect((await page(reader)).memes[0]).toMatchObject({ downvotes: 3 });
    });

    it.each([
      ['?limit=51', 'limit must be a number from 1 to 50'],
      ['?limit=0', 'limit must be a number from 1 to 50'],
      ['?limit=abc', 'limit must be a number from 1 to 50'],
      ['?cursor=abc', 'cursor must come from the previous page'],
      ['?cursor=12-24', 'cursor must come from the previous page'],
      ['?sort=hot&cursor=12', 'cursor must come from the previous page'],
      ['?sort=best', 'sort must be new, top or hot'],
      ['?category=cats', 'Unknown category'],
    ])('refuses %s', async (query, message) => {
      const res = await member.request('GET', `${memePaths.list}${query}`);
      expect(res.statusCode).toBe(400);
      expect(res.json<{ message: string }>().message).toContain(message);
    });

    it('drops a meme the operator hid from votes at once and from lists within a second', async () => {
      const [a, b] = await seedMemes(t.app, 2, { userId: memberId });
      const visitor = TestClient.inject(t.app);
      const listed = async () => (await page(visitor)).memes.map((m) => m.id);
      expect(await listed()).toEqual([b, a]);
      // The operator's CLI is another process: it writes to the database past this node's cache.
      await setMemeHidden(t.app.deps.db, b!, true);
      expect((await vote(visitor, b!, 'up')).statusCode).toBe(404);
      t.clock.advance(1001);
      await expect.poll(listed).toEqual([a]);
      await setMemeHidden(t.app.deps.db, b!, false);
      t.clock.advance(1001);
      await expect.poll(listed).toEqual([b, a]);
    });
  });

  describe('voting', () => {
    it("counts a visitor's vote as theirs (a signed cookie), toggles and switches it, and shows it back", async () => {
      const [id] = await seedMemes(t.app, 1, { userId: memberId });
      const visitor = TestClient.inject(t.app);
      // A visitor who never voted carries no cookie: their reads cost no votes query.
      expect((await page(visitor)).memes[0]!.myVote).toBeNull();

      const first = await vote(visitor, id!, 'up');
      expect(first.statusCode).toBe(200);
      expect(first.json()).toEqual({ upvotes: 1, downvotes: 0, myVote: 'up' });
      const cookie = first.cookies.find((c) => c.name === VISITOR_COOKIE)!;
      expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/' });
      expect(cookie.value).toMatch(/^[\w-]{22}\.[\w-]{43}$/);
      expect(cookie.maxAge).toBeGreaterThan(300 * 24 * 3600);

      expect((await page(visitor)).memes[0]!.myVote).toBe('up');
      expect((await page(TestClient.inject(t.app))).memes[0]!.myVote).toBeNull();

      // Down switches the vote, down again takes it back, up casts it anew.
      for (const [voteType, counts] of [
        ['down', { upvotes: 0, downvotes: 1, myVote: 'down' }],
        ['down', { upvotes: 0, downvotes: 0, myVote: null }],
        ['up', { upvotes: 1, downvotes: 0, myVote: 'up' }],
      ] as const) {
        expect((await vote(visitor, id!, voteType)).json()).toEqual(counts);
      }
      // The cookie was set once; later votes reuse it.
      expect(visitor.cookies.get(VISITOR_COOKIE)).toBe(cookie.value);

      // A forged or altered cookie is nobody's: it reads no votes and votes as a new visitor.
      const forged = TestClient.inject(t.app);
      forged.cookies.set(VISITOR_COOKIE, `${cookie.value.slice(0, 22)}.${'A'.repeat(43)}`);
      expect((await page(forged)).memes[0]!.myVote).toBeNull();
      expect((await vote(forged, id!, 'up')).json()).toEqual({
        upvotes: 2,
        downvotes: 0,
        myVote: 'up',
      });

      expect((await vote(member, id!, 'up')).json()).toEqual({
        upvotes: 3,
        downvotes: 0,
        myVote: 'up',
      });
      expect((await page(member)).memes[0]!.myVote).toBe('up');
      expect(await findCountMismatches(t.app.deps.db)).toEqual([]);
    });

    it("keeps each visitor's vote their own behind one address, up to the network's cap", async () => {
      const [id] = await seedMemes(t.app, 1, { userId: memberId });
      const a = TestClient.inject(t.app, '203.0.113.60');
      const b = TestClient.inject(t.app, '203.0.113.60');
      expect((await vote(a, id!, 'up')).json()).toEqual({ upvotes: 1, downvotes: 0, myVote: 'up' });
      // B, same address, own browser: a vote of their own, A's untouched.
      expect((await vote(b, id!, 'up')).json()).toEqual({ upvotes: 2, downvotes: 0, myVote: 'up' });
      expect((await page(a)).memes[0]).toMatchObject({ upvotes: 2, myVote: 'up' });
      expect((await vote(b, id!, 'down')).json()).toEqual({
        upvotes: 1,
        downvotes: 1,
        myVote: 'down',
      });
      expect((await page(a)).memes[0]!.myVote).toBe('up');
      expect((await page(b)).memes[0]!.myVote).toBe('down');
      // B takes theirs back: A's stays.
      expect((await vote(b, id!, 'down')).json()).toEqual({
        upvotes: 1,
        downvotes: 0,
        myVote: null,
      });
      expect((await page(a)).memes[0]!.myVote).toBe('up');
      expect((await page(b)).memes[0]!.myVote).toBeNull();

      // Fresh browsers on that address fill the cap; past it a new vote is refused, clearly.
      const counted = [a];
      while (counted.length < VISITOR_VOTES_PER_NETWORK) {
        const fresh = TestClient.inject(t.app, '203.0.113.60');
        expect((await vote(fresh, id!, 'up')).statusCode).toBe(200);
        counted.push(fresh);
      }
      const refused = await vote(b, id!, 'up');
      expect(refused.statusCode).toBe(409);
      expect(refused.json()).toEqual({
        message: `${VISITOR_VOTES_PER_NETWORK} visitors on your network have already voted on this meme. Log in to vote.`,
        code: 'NETWORK_VOTES_FULL',
      });
      expect((await page(b)).memes[0]!.myVote).toBeNull();
      // A counted voter may still switch or take back their own vote; that frees a place.
      expect((await vote(a, id!, 'down')).statusCode).toBe(200);
      expect((await vote(a, id!, 'down')).json()).toMatchObject({ myVote: null });
      expect((await vote(b, id!, 'up')).json()).toMatchObject({
        upvotes: VISITOR_VOTES_PER_NETWORK,
        myVote: 'up',
      });
      // One IPv6 subscriber (a /48) is one network, whichever of its /64s a vote comes from;
      // another network has its own places; members are not capped.
      const downFrom = async (ip: string) =>
        (await vote(TestClient.inject(t.app, ip), id!, 'down')).statusCode;
      for (let j = 0; j < VISITOR_VOTES_PER_NETWORK; j++) {
        expect(await downFrom(`2001:db8:5:${j}::1`)).toBe(200);
      }
      expect(await downFrom('2001:db8:5:ff00::9')).toBe(409);
      expect(await downFrom('2001:db8:6::1')).toBe(200);
      expect((await vote(TestClient.inject(t.app, '198.51.100.61'), id!, 'up')).statusCode).toBe(
        200,
      );
      expect((await vote(member, id!, 'down')).json()).toEqual({
        upvotes: VISITOR_VOTES_PER_NETWORK + 1,
        downvotes: VISITOR_VOTES_PER_NETWORK + 2,
        myVote: 'down',
      });
      expect(await findCountMismatches(t.app.deps.db)).toEqual([]);
    });

    it("holds the network's cap when its visitors vote at once", async () => {
      const [id] = await seedMemes(t.app, 1, { userId: memberId });
      const visitors = Array.from({ length: 30 }, () => TestClient.inject(t.app, '203.0.113.70'));
      await Promise.all(visitors.map((v) => v.token()));
      const answers = await Promise.all(visitors.map((v) => vote(v, id!, 'up')));
      const statuses = answers.map((r) => r.statusCode);
      expect(statuses.filter((s) => s === 200)).toHaveLength(VISITOR_VOTES_PER_NETWORK);
      expect(statuses.filter((s) => s === 409)).toHaveLength(30 - VISITOR_VOTES_PER_NETWORK);
      expect(Math.max(...answers.map((r) => r.json<{ upvotes?: number }>().upvotes ?? 0))).toBe(
        VISITOR_VOTES_PER_NETWORK,
      );
      expect(await findCountMismatches(t.app.deps.db)).toEqual([]);
      const stored = await t.app.deps.db
        .selectFrom('meme_votes')
        .select('voter')
        .where('meme_id', '=', id!)
        .execute();
      expect(stored).toHaveLength(VISITOR_VOTES_PER_NETWORK);
    });

    it('refuses unknown memes, bad vote types and calls without a CSRF token', async () => {
      const [id] = await seedMemes(t.app, 1, { userId: memberId });
      expect((await vote(member, 999_999, 'up')).statusCode).toBe(404);
      expect((await vote(member, id!, 'sideways')).statusCode).toBe(400);
      expect(
        (await member.request('POST', '/api/memes/abc/vote', { body: { voteType: 'up' } }))
          .statusCode,
      ).toBe(400);
      const noToken = await member.request('POST', pathTo(memePaths.vote, { id: id! }), {
        body: { voteType: 'up' },
        csrf: false,
      });
      expect(noToken.statusCode).toBe(403);
      expect(await findCountMismatches(t.app.deps.db)).toEqual([]);
      expect((await page(member)).memes[0]).toMatchObject({ upvotes: 0, downvotes: 0 });
    });

    it('keeps counts exact when 100 visitors vote at once, twice', async () => {
      const [id] = await seedMemes(t.app, 1, { userId: memberId });
      const visitors = Array.from({ length: 100 }, (_, i) =>
        TestClient.inject(t.app, `10.7.0.${i + 1}`),
      );
      await Promise.all(visitors.map((v) => v.token()));
      const firstVotes = visitors.map((_, i) => (i % 3 === 0 ? 'down' : 'up'));
      const firstRound = await Promise.all(visitors.map((v, i) => vote(v, id!, firstVotes[i]!)));
      expect(firstRound.every((r) => r.statusCode === 200)).toBe(true);

      // Every second visitor takes the vote back, every fourth switches it, the rest vote again.
      const secondVotes = visitors.map((_, i) =>
        i % 2 === 0
          ? firstVotes[i]!
          : i % 4 === 1
            ? firstVotes[i] === 'up'
              ? 'down'
              : 'up'
            : firstVotes[i]!,
      );
      const secondRound = await Promise.all(visitors.map((v, i) => vote(v, id!, secondVotes[i]!)));
      expect(secondRound.every((r) => r.statusCode === 200)).toBe(true);

      const expected = { up: 0, down: 0 };
      visitors.forEach((_, i) => {
        const final = firstVotes[i] === secondVotes[i] ? null : secondVotes[i]!;
        if (final) expected[final as 'up' | 'down'] += 1;
      });
      const [meme] = (await page(member)).memes;
      expect({ up: meme!.upvotes, down: meme!.downvotes }).toEqual(expected);
      expect(await findCountMismatches(t.app.deps.db)).toEqual([]);
      const stored = await t.app.deps.db
        .selectFrom('meme_votes')
        .selectAll()
        .where('meme_id', '=', id!)
        .execute();
      expect(stored).toHaveLength(expected.up + expected.down);
    });

    it("queues one voter's simultaneous clicks: each toggles in turn, none fails", async () => {
      const [id] = await seedMemes(t.app, 1, { userId: memberId });
      await member.token();
      const clicks = await Promise.all(Array.from({ length: 11 }, () => vote(member, id!, 'up')));
      expect(clicks.map((r) => r.statusCode)).toEqual(Array(11).fill(200));
      // Eleven toggles end where one would.
      expect((await page(member)).memes[0]).toMatchObject({
        upvotes: 1,
        downvotes: 0,
        myVote: 'up',
      });
      expect(
        clicks.filter((r) => r.json<{ myVote: string | null }>().myVote === 'up'),
      ).toHaveLength(6);
      expect(await findCountMismatches(t.app.deps.db)).toEqual([]);
    });

    it('limits votes per IP and says when to come back', async () => {
      const [id] = await seedMemes(t.app, 1, { userId: memberId });
      // A member, whose clicks toggle one vote: what is limited is the clicking.
      const token = await member.token();
      const cookie = member.cookieHeader();
      const send = (remoteAddress: string) =>
        t.app.inject({
          method: 'POST',
          url: pathTo(memePaths.vote, { id: id! }),
          remoteAddress,
          headers: { 'content-type': 'application/json', 'x-csrf-token': token, cookie },
          payload: { voteType: 'up' },
        });
      const { limit } = GALLERY_LIMITS.votePerIp;
      for (let i = 0; i < limit; i++) expect((await send('203.0.113.7')).statusCode).toBe(200);
      const refused = await send('203.0.113.7');
      expect(refused.statusCode).toBe(429);
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
      expect((await send('203.0.113.8')).statusCode).toBe(200);
      t.clock.advance(GALLERY_LIMITS.votePerIp.windowMs);
      expect((await send('203.0.113.7')).statusCode).toBe(200);
    });
  });
});
