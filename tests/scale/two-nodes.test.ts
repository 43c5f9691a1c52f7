// Two server processes, one PostgreSQL database, one S3 bucket: a member's consecutive requests
// alternate between the nodes, as a load balancer without sticky sessions would send them.
// Run once with rate limits in SQL and once in Redis (REDIS_URL).
import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import type { Kysely } from 'kysely';
import sharp from 'sharp';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { authPaths, gamePaths, memePaths, pathTo, shopPaths } from '#shared/api/paths.ts';
import type { Meme } from '#shared/api/memes.ts';
import type { Database } from '#server/db/database.ts';
import { createDatabase } from '#server/db/create-database.ts';
import { findInvariantViolations } from '#test-support/invariants.ts';
import { scoreBody, type HonestRun } from '#test-support/honest-run.ts';
import type { NodeProcess } from '#test-support/node-process.ts';
import { playReportedRun, type ReportedRun } from '#test-support/reported-run.ts';
import type { ScratchS3 } from '#test-support/scratch.ts';
import type { TestClient } from '#test-support/test-client.ts';
import { describeOnTwoNodes, newBrowser, redisUrl } from '#test-support/two-node-site.ts';
import { creditCoins } from '#server/shop/ledger.ts';
import { createS3Store } from '#server/storage/s3.ts';
import { sleep } from '#test-support/sleep.ts';

/** The longest a node serves a kept gallery page (twice its 1 s lifetime, http/read-cache.ts), plus room. */
const PAGE_CACHE_SETTLE_MS = 3000;

const tag = randomBytes(3).toString('hex');
let counter = 0;
const name = (prefix: string) => `${prefix}_${tag}_${++counter}`;

describeOnTwoNodes(
  'two nodes on one PostgreSQL and one bucket, rate limits in $shared',
  { postgres: 'SQL', redis: 'Redis', dataDirPrefix: 'grind-scale-node-' },
  (site, redis) => {
    let s3: ScratchS3;
    let db: Kysely<Database>;

    // One member's browser, and the run it started before anything else (rounds take real time).
    let member: TestClient;
    let memberName: string;
    let memberId: number;
    let run: HonestRun;
    let played: ReportedRun;
    let meme: Meme;

    beforeAll(async () => {
      s3 = site.scratch.s3!;
      db = createDatabase({ kind: 'postgres', url: site.scratch.database!.url });

      member = newBrowser();
      memberName = name('member');
      memberId = (await member.register(memberName, 'password123', { node: site.a.origin })).id;
      // The round's progress reports go out while the other tests run, to both nodes in turn:
      // the run's progress is kept in SQL, so either node takes any report.
      played = await playReportedRun(member, {
        node: site.a.origin,
        targetSteps: 420,
        withCoins: true,
        reportTo: (index) => (index % 2 === 0 ? site.a : site.b).origin,
      });
      // Before any check here: a failed check would leave the reports' rejection unhandled.
      played.reporting.catch(() => {});
      run = played.run;
      expect(run.result.coins).toBeGreaterThan(0);
    }, 120_000);

    afterAll(async () => {
      await db?.destroy();
    });

    it('keeps the session and the CSRF token valid on both nodes', async () => {
      const me = await member.request('GET', authPaths.me, { node: site.b.origin });
      expect(me.statusCode).toBe(200);
      expect(me.json()).toEqual({ user: { id: memberId, username: memberName } });

      // The token came from A (fetched for the run above); B checks it without asking A.
      const onB = await member.request('POST', pathTo(shopPaths.select, { key: 'default' }), {
        node: site.b.origin,
      });
      expect(onB.statusCode).toBe(200);
      const wrong = await member.request('POST', memePaths.uploadTarget, {
        node: site.b.origin,
        headers: { 'x-csrf-token': 'not-the-token' },
      });
      expect(wrong.statusCode).toBe(403);
    });

    it('uploads on one node, processes on the other, serves the image from either', async () => {
      const target = await member.request('POST', memePaths.uploadTarget, { node: site.a.origin });
      expect(target.statusCode).toBe(200);
      const { uploadURL } = target.json<{ uploadURL: string }>();
      expect(uploadURL.startsWith(`${s3.endpoint}/${s3.bucket}/uploads/`)).toBe(true);

      const png = await sharp({
        create: { width: 64, height: 48, channels: 3, background: { r: 250, g: 180, b: 20 } },
      })
        .png()
        .toBuffer();
      const put = await fetch(uploadURL, {
        method: 'PUT',
        body: new Uint8Array(png),
        headers: { 'content-type': 'image/png' },
      });
      expect(put.status).toBe(200);

      const processed = await member.request('PUT', memePaths.memeImages, {
        node: site.b.origin,
        body: { imageUrl: uploadURL },
      });
      expect(processed.statusCode).toBe(200);
      const { objectPath } = processed.json<{ objectPath: string }>();

      const created = await member.request('POST', memePaths.create, {
        node: site.a.origin,
        body: { title: 'Two nodes, one meme', category: 'office-life', imageUrl: objectPath },
      });
      expect(created.statusCode).toBe(201);
      meme = created.json<{ meme: Meme }>().meme;
      expect(meme.imageUrl).toBe(objectPath);

      const fromB = await fetch(new URL(meme.imageUrl, site.b.origin));
      const fromA = await fetch(new URL(meme.imageUrl, site.a.origin));
      expect([fromA.status, fromB.status]).toEqual([200, 200]);
      const bytesB = Buffer.from(await fromB.arrayBuffer());
      expect(bytesB.equals(Buffer.from(await fromA.arrayBuffer()))).toBe(true);
      expect((await sharp(bytesB).metadata()).width).toBe(64);
      expect((await fetch(new URL(meme.thumbnailUrl, site.b.origin))).status).toBe(200);

      // B lists it within its read cache's second (docs/decisions/011-one-read-cache-rule.md).
      await expect
        .poll(async () => {
          const listed = await member.request('GET', memePaths.list, { node: site.b.origin });
          return listed.json<Meme[]>().map((m) => m.id);
        })
        .toContain(meme.id);
    });

    it('counts votes exactly when the voters alternate between the nodes', async () => {
      const visitor1 = newBrowser();
      const visitor2 = newBrowser();
      const path = pathTo(memePaths.vote, { id: meme.id });
      const steps: [
        TestClient,
        NodeProcess,
        'up' | 'down',
        [number, number, 'up' | 'down' | null],
      ][] = [
        [member, site.a, 'up', [1, 0, 'up']],
        [visitor1, site.b, 'up', [2, 0, 'up']],
        [member, site.b, 'down', [1, 1, 'down']],
        [visitor2, site.a, 'down', [1, 2, 'down']],
        // The visitor's cookie was signed by B; A knows it. The same vote again takes it back.
        [visitor1, site.a, 'up', [0, 2, null]],
        [member, site.a, 'down', [0, 1, null]],
        [visitor2, site.b, 'up', [1, 0, 'up']],
      ];
      for (const [client, node, voteType, [upvotes, downvotes, myVote]] of steps) {
        const res = await client.request('POST', path, { node: node.origin, body: { voteType } });
        expect(res.statusCode).toBe(200);
        expect(res.json()).toEqual({ upvotes, downvotes, myVote });
      }
      const row = await db
        .selectFrom('memes')
        .select(['upvotes', 'downvotes'])
        .where('id', '=', meme.id)
        .executeTakeFirstOrThrow();
      expect(row).toEqual({ upvotes: 1, downvotes: 0 });

      // Each caller's own vote is read per request: exact on both nodes at once.
      for (const node of [site.a, site.b]) {
        const page = await visitor2.request('GET', memePaths.list, { node: node.origin });
        expect(page.json<Meme[]>().find((m) => m.id === meme.id)?.myVote).toBe('up');
      }
      // Counts in B's cached page follow a vote on A within the cache's entry lifetime (1 s;
      // http/read-cache.ts): B is asked first so it holds the page, then A takes a vote.
      const countsOn = async (node: NodeProcess) => {
        const page = await fetch(new URL(memePaths.list, node.origin));
        const m = ((await page.json()) as Meme[]).find((x) => x.id === meme.id);
        return m && `${m.upvotes}/${m.downvotes}`;
      };
      expect(await countsOn(site.b)).toBe('1/0');
      const visitor3 = newBrowser();
      const voted = await visitor3.request('POST', path, {
        node: site.a.origin,
        body: { voteType: 'up' },
      });
      expect(voted.json()).toEqual({ upvotes: 2, downvotes: 0, myVote: 'up' });
      const votedAt = Date.now();
      let onB = await countsOn(site.b);
      while (onB !== '2/0' && Date.now() - votedAt < PAGE_CACHE_SETTLE_MS) {
        await sleep(50);
        onB = await countsOn(site.b);
      }
      expect(onB).toBe('2/0');
      // On A, where it was cast, the voter's next read counts it at once (their page is loaded
      // after their vote), and the page other readers get here is that one.
      const votersPage = await visitor3.request('GET', memePaths.list, { node: site.a.origin });
      expect(votersPage.json<Meme[]>().find((m) => m.id === meme.id)).toMatchObject({
        upvotes: 2,
        downvotes: 0,
        myVote: 'up',
      });
      expect(await countsOn(site.a)).toBe('2/0');
    });

    it('takes a run issued by A, its score and coins on B, and a purchase on A', async () => {
      // A holds this week's (empty) standings in its leaderboard cache.
      const leaderboardOn = async (node: NodeProcess) => {
        const res = await fetch(new URL(gamePaths.leaderboard, node.origin));
        return ((await res.json()) as { id: number }[]).map((e) => e.id);
      };
      expect(await leaderboardOn(site.a)).toEqual([]);
      await played.reporting;
      await sleep(Math.max(0, played.playableAt - Date.now()));
      const scored = await member.request('POST', gamePaths.scores, {
        node: site.b.origin,
        body: scoreBody(run, 'ignored'),
      });
      expect(scored.statusCode, scored.body).toBe(201);
      const { entry } = scored.json<{ entry: { id: number; playerName: string; score: number } }>();
      expect(entry).toMatchObject({ playerName: memberName, score: run.result.score });
      const again = await member.request('POST', gamePaths.scores, {
        node: site.a.origin,
        body: scoreBody(run, 'ignored'),
      });
      expect(again.statusCode).toBe(422);

      const coins = run.result.coins;
      const credited = await member.request('POST', gamePaths.coins, {
        node: site.b.origin,
        body: { amount: coins, runId: run.runId },
      });
      expect(credited.statusCode).toBe(200);
      expect(credited.json()).toEqual({ coinsAdded: coins, balance: coins });
      const twice = await member.request('POST', gamePaths.coins, {
        node: site.a.origin,
        body: { amount: coins, runId: run.runId },
      });
      expect(twice.statusCode).toBe(422);

      // B took the score and shows it at once; A within its cache's second (plus one refresh).
      expect(await leaderboardOn(site.b)).toEqual([entry.id]);
      const scoredAt = Date.now();
      let onA = await leaderboardOn(site.a);
      while (onA.length === 0 && Date.now() - scoredAt < 3000) {
        await sleep(50);
        onA = await leaderboardOn(site.a);
      }
      expect(onA).toEqual([entry.id]);

      // The operator's grant (what `coins:grant` does), then a purchase on A.
      await creditCoins(db, {
        userId: memberId,
        amount: 100,
        reason: 'grant',
        note: 'scale test',
        now: Date.now(),
      });
      const purchase = pathTo(shopPaths.purchase, { key: 'hardhat' });
      const bought = await member.request('POST', purchase, { node: site.a.origin });
      expect(bought.statusCode, bought.body).toBe(200);
      expect(bought.json<{ profile: { coins: number } }>().profile.coins).toBe(coins + 100 - 50);
      const boughtAgain = await member.request('POST', purchase, { node: site.b.origin });
      expect(boughtAgain.statusCode).toBe(409);

      const profileOnB = await member.request('GET', shopPaths.profile, { node: site.b.origin });
      expect(profileOnB.json()).toEqual({
        username: memberName,
        coins: coins + 50,
        selectedCharacterKey: 'default',
      });
      const selected = await member.request('POST', pathTo(shopPaths.select, { key: 'hardhat' }), {
        node: site.b.origin,
      });
      expect(selected.statusCode).toBe(200);
      const profileOnA = await member.request('GET', shopPaths.profile, { node: site.a.origin });
      expect(profileOnA.json()).toMatchObject({
        coins: coins + 50,
        selectedCharacterKey: 'hardhat',
      });
      const owned = await member.request('GET', shopPaths.characters, { node: site.b.origin });
      expect(owned.json()).toEqual([{ characterKey: 'default' }, { characterKey: 'hardhat' }]);

      const ledger = await db
        .selectFrom('coin_ledger')
        .select(['delta', 'balance_after', 'reason'])
        .where('user_id', '=', memberId)
        .orderBy('id')
        .execute();
      expect(ledger).toEqual([
        { delta: coins, balance_after: coins, reason: 'game-run' },
        { delta: 100, balance_after: coins + 100, reason: 'grant' },
        { delta: -50, balance_after: coins + 50, reason: 'purchase' },
      ]);
    });

    it('counts failed logins across both nodes in the shared store', async () => {
      const target = name('throttled');
      const owner = newBrowser();
      await owner.register(target, 'password123', { node: site.b.origin });

      const attacker = newBrowser();
      const statuses: number[] = [];
      for (let i = 0; i < 12; i++) {
        const node = i % 2 === 0 ? site.a : site.b;
        const res = await attacker.login(target, `wrong-${i}`, { node: node.origin });
        statuses.push(res.statusCode);
        if (res.statusCode === 429) expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
      }
      // 10 per username and address per window: one node alone would have allowed 10 more.
      expect(statuses).toEqual([...Array<number>(10).fill(401), 429, 429]);
      const rightPassword = await attacker.login(target, 'password123', { node: site.a.origin });
      expect(rightPassword.statusCode).toBe(429);
      // The owner, from their own address, is not locked out by someone else's guesses.
      const ownerLogin = await owner.login(target, 'password123', { node: site.b.origin });
      expect(ownerLogin.statusCode).toBe(200);

      const key = `login:user:${target.toLowerCase()}:net:${attacker.clientIp}`;
      const sqlRow = await db
        .selectFrom('rate_limits')
        .select('count')
        .where('key', '=', key)
        .executeTakeFirst();
      if (redis) {
        const client = new Redis(redisUrl);
        try {
          expect(Number(await client.get(`grind:rl:${key}`))).toBe(13);
        } finally {
          client.disconnect();
        }
        expect(sqlRow).toBeUndefined();
      } else {
        expect(sqlRow?.count).toBe(13);
      }
    });

    it('ends the session everywhere on logout, and leaves every invariant holding', async () => {
      const out = await member.request('POST', authPaths.logout, { node: site.b.origin });
      expect(out.statusCode).toBe(200);
      const me = await member.request('GET', authPaths.me, { node: site.a.origin });
      expect(me.json()).toEqual({ user: null });

      const store = createS3Store(s3.config);
      try {
        expect(await findInvariantViolations(db, store)).toEqual([]);
      } finally {
        store.client.destroy();
      }
    });
  },
);
