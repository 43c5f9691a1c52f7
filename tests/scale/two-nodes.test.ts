// Two server processes, one PostgreSQL database, one S3 bucket: a member's consecutive requests
// alternate between the nodes, as a load balancer without sticky sessions would send them.
// Run once with rate limits in SQL and once in Redis (REDIS_URL).
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import { Redis } from 'ioredis';
import type { Kysely } from 'kysely';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { progressPath } from '#shared/api/game.ts';
import type { Meme } from '#shared/api/memes.ts';
import type { Database } from '#server/db/database.ts';
import { createDatabase } from '#server/db/create-database.ts';
import { findInvariantViolations } from '#server/ops/invariants.ts';
import {
  playableAfterMs,
  sendProgressReports,
  playHonestly,
  scoreBody,
  type HonestRun,
} from '#test-support/honest-run.ts';
import { startNode, type NodeProcess } from '#test-support/node-process.ts';
import { createScratchPostgres, type ScratchPostgres } from '#test-support/scratch-postgres.ts';
import {
  newSessionSecret,
  scratchDir,
  startScratchS3,
  type ScratchS3,
} from '#test-support/scratch.ts';
import { answer, SiteClient } from '#test-support/site-client.ts';
import { creditCoins } from '#server/shop/ledger.ts';
import { createS3Store } from '#server/storage/s3.ts';

const adminUrl = process.env.TEST_DATABASE_URL;
const redisUrl = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const PUBLIC_ORIGIN = 'http://grind.example';
/** The gallery page cache's entry lifetime (http/read-cache.ts), plus room for a busy machine. */
const PAGE_CACHE_SETTLE_MS = 3000;

if (!adminUrl) {
  console.warn(
    'tests/scale/two-nodes: skipped, TEST_DATABASE_URL is not set (two nodes need one PostgreSQL)',
  );
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const tag = randomBytes(3).toString('hex');
let counter = 0;
const name = (prefix: string) => `${prefix}_${tag}_${++counter}`;
/** An address per simulated browser, as the balancer reports it (nodes run with TRUST_PROXY). */
const clientIp = () => `10.${randomBytes(1)[0]}.${randomBytes(1)[0]}.${randomBytes(1)[0]! | 1}`;

describe.skipIf(!adminUrl).each([
  { limits: 'SQL', redis: false },
  { limits: 'Redis', redis: true },
])('two nodes on one PostgreSQL and one bucket, rate limits in $limits', ({ redis }) => {
  let database: ScratchPostgres;
  let s3: ScratchS3;
  let a: NodeProcess;
  let b: NodeProcess;
  let db: Kysely<Database>;
  const dataDirs: string[] = [];

  // One member's browser, and the run it started before anything else (rounds take real time).
  let member: SiteClient;
  let memberName: string;
  let memberId: number;
  let run: HonestRun;
  let runIssuedAt: number;
  let reporting: Promise<void>;
  let meme: Meme;

  beforeAll(async () => {
    [database, s3] = await Promise.all([createScratchPostgres(adminUrl!), startScratchS3()]);
    const secret = newSessionSecret();
    const env = () => {
      const dataDir = scratchDir('grind-scale-node-');
      dataDirs.push(dataDir);
      return {
        DATABASE_URL: database.url,
        DATA_DIR: dataDir,
        ...s3.env,
        SESSION_SECRET: secret,
        PUBLIC_ORIGIN,
        TRUST_PROXY: 'true',
        REDIS_URL: redis ? redisUrl : undefined,
        CLIENT_DIST_DIR: `${dataDir}/no-client`,
      };
    };
    // One after the other: both would race to run the migrations on the empty database.
    a = await startNode({ env: env() });
    b = await startNode({ env: env() });
    db = createDatabase({ kind: 'postgres', url: database.url });

    member = new SiteClient(PUBLIC_ORIGIN, clientIp());
    memberName = name('member');
    const registered = await answer<{ user: { id: number } }>(
      member.fetch(a.origin, 'POST', '/api/auth/register', {
        json: { username: memberName, password: 'password123' },
      }),
    );
    expect(registered.status).toBe(201);
    memberId = registered.body.user.id;
    const issued = await answer<{ runId: string; seed: number }>(
      member.fetch(a.origin, 'POST', '/api/game-runs'),
    );
    expect(issued.status).toBe(201);
    runIssuedAt = Date.now();
    run = playHonestly(issued.body.runId, issued.body.seed, 420);
    expect(run.result.coins).toBeGreaterThan(0);
    // The round's progress reports go out while the other tests run, to both nodes in turn:
    // the run's progress is kept in SQL, so either node takes any report.
    const played = run;
    reporting = sendProgressReports(played, runIssuedAt, async (body, index) => {
      const node = index % 2 === 0 ? a : b;
      const res = await answer(
        member.fetch(node.origin, 'POST', progressPath(played.runId), { json: body }),
      );
      return res.status;
    });
    reporting.catch(() => {});
  }, 120_000);

  afterAll(async () => {
    await Promise.all([a?.stop(), b?.stop()]);
    await db?.destroy();
    await database?.drop();
    await s3?.close();
    for (const dir of dataDirs) fs.rmSync(dir, { recursive: true, force: true });
  });

  it('keeps the session and the CSRF token valid on both nodes', async () => {
    const me = await answer<{ user: { username: string } | null }>(
      member.fetch(b.origin, 'GET', '/api/auth/me'),
    );
    expect(me).toEqual({ status: 200, body: { user: { id: memberId, username: memberName } } });

    // The token came from A (fetched for the run above); B checks it without asking A.
    const onB = await answer(member.fetch(b.origin, 'POST', '/api/characters/default/select'));
    expect(onB.status).toBe(200);
    const wrong = await answer(
      member.fetch(b.origin, 'POST', '/api/objects/upload', {
        headers: { 'x-csrf-token': 'not-the-token' },
      }),
    );
    expect(wrong.status).toBe(403);
  });

  it('uploads on one node, processes on the other, serves the image from either', async () => {
    const target = await answer<{ uploadURL: string }>(
      member.fetch(a.origin, 'POST', '/api/objects/upload'),
    );
    expect(target.status).toBe(200);
    expect(target.body.uploadURL.startsWith(`${s3.endpoint}/${s3.bucket}/uploads/`)).toBe(true);

    const png = await sharp({
      create: { width: 64, height: 48, channels: 3, background: { r: 250, g: 180, b: 20 } },
    })
      .png()
      .toBuffer();
    const put = await fetch(target.body.uploadURL, {
      method: 'PUT',
      body: new Uint8Array(png),
      headers: { 'content-type': 'image/png' },
    });
    expect(put.status).toBe(200);

    const processed = await answer<{ objectPath: string }>(
      member.fetch(b.origin, 'PUT', '/api/meme-images', {
        json: { imageUrl: target.body.uploadURL },
      }),
    );
    expect(processed.status).toBe(200);

    const created = await answer<{ meme: Meme }>(
      member.fetch(a.origin, 'POST', '/api/memes', {
        json: {
          title: 'Two nodes, one meme',
          category: 'office-life',
          imageUrl: processed.body.objectPath,
        },
      }),
    );
    expect(created.status).toBe(201);
    meme = created.body.meme;
    expect(meme.imageUrl).toBe(processed.body.objectPath);

    const fromB = await fetch(new URL(meme.imageUrl, b.origin));
    const fromA = await fetch(new URL(meme.imageUrl, a.origin));
    expect([fromA.status, fromB.status]).toEqual([200, 200]);
    const bytesB = Buffer.from(await fromB.arrayBuffer());
    expect(bytesB.equals(Buffer.from(await fromA.arrayBuffer()))).toBe(true);
    expect((await sharp(bytesB).metadata()).width).toBe(64);
    expect((await fetch(new URL(meme.thumbnailUrl, b.origin))).status).toBe(200);

    // B lists it within its read cache's second (docs/decisions/011-one-read-cache-rule.md).
    await expect
      .poll(async () => {
        const listed = await answer<Meme[]>(member.fetch(b.origin, 'GET', '/api/memes'));
        return listed.body.map((m) => m.id);
      })
      .toContain(meme.id);
  });

  it('counts votes exactly when the voters alternate between the nodes', async () => {
    const visitor1 = new SiteClient(PUBLIC_ORIGIN, clientIp());
    const visitor2 = new SiteClient(PUBLIC_ORIGIN, clientIp());
    const path = `/api/memes/${meme.id}/vote`;
    const steps: [
      SiteClient,
      NodeProcess,
      'up' | 'down',
      [number, number, 'up' | 'down' | null],
    ][] = [
      [member, a, 'up', [1, 0, 'up']],
      [visitor1, b, 'up', [2, 0, 'up']],
      [member, b, 'down', [1, 1, 'down']],
      [visitor2, a, 'down', [1, 2, 'down']],
      // The visitor's cookie was signed by B; A knows it. The same vote again takes it back.
      [visitor1, a, 'up', [0, 2, null]],
      [member, a, 'down', [0, 1, null]],
      [visitor2, b, 'up', [1, 0, 'up']],
    ];
    for (const [client, node, voteType, [upvotes, downvotes, myVote]] of steps) {
      const res = await answer(client.fetch(node.origin, 'POST', path, { json: { voteType } }));
      expect(res).toEqual({ status: 200, body: { upvotes, downvotes, myVote } });
    }
    const row = await db
      .selectFrom('memes')
      .select(['upvotes', 'downvotes'])
      .where('id', '=', meme.id)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ upvotes: 1, downvotes: 0 });

    // Each caller's own vote is read per request: exact on both nodes at once.
    for (const node of [a, b]) {
      const page = await answer<Meme[]>(visitor2.fetch(node.origin, 'GET', '/api/memes'));
      expect(page.body.find((m) => m.id === meme.id)?.myVote).toBe('up');
    }
    // Counts in B's cached page follow a vote on A within the cache's entry lifetime (1 s;
    // http/read-cache.ts): B is asked first so it holds the page, then A takes a vote.
    const countsOn = async (node: NodeProcess) => {
      const page = await answer<Meme[]>(fetch(new URL('/api/memes', node.origin)));
      const m = page.body.find((x) => x.id === meme.id);
      return m && `${m.upvotes}/${m.downvotes}`;
    };
    expect(await countsOn(b)).toBe('1/0');
    const visitor3 = new SiteClient(PUBLIC_ORIGIN, clientIp());
    const voted = await answer(
      visitor3.fetch(a.origin, 'POST', path, { json: { voteType: 'up' } }),
    );
    expect(voted.body).toEqual({ upvotes: 2, downvotes: 0, myVote: 'up' });
    const votedAt = Date.now();
    let onB = await countsOn(b);
    while (onB !== '2/0' && Date.now() - votedAt < PAGE_CACHE_SETTLE_MS) {
      await sleep(50);
      onB = await countsOn(b);
    }
    expect(onB).toBe('2/0');
    expect(await countsOn(a)).toBe('2/0');
  });

  it('takes a run issued by A, its score and coins on B, and a purchase on A', async () => {
    // A holds this week's (empty) standings in its leaderboard cache.
    const leaderboardOn = async (node: NodeProcess) =>
      (await answer<{ id: number }[]>(fetch(new URL('/api/leaderboard', node.origin)))).body.map(
        (e) => e.id,
      );
    expect(await leaderboardOn(a)).toEqual([]);
    await reporting;
    await sleep(Math.max(0, runIssuedAt + playableAfterMs(run) - Date.now()));
    const scored = await answer<{ entry: { id: number; playerName: string; score: number } }>(
      member.fetch(b.origin, 'POST', '/api/game-scores', { json: scoreBody(run, 'ignored') }),
    );
    expect(scored.status, JSON.stringify(scored.body)).toBe(201);
    expect(scored.body.entry).toMatchObject({ playerName: memberName, score: run.result.score });
    const again = await answer(
      member.fetch(a.origin, 'POST', '/api/game-scores', { json: scoreBody(run, 'ignored') }),
    );
    expect(again.status).toBe(422);

    const coins = run.result.coins;
    const credited = await answer(
      member.fetch(b.origin, 'POST', '/api/coins/add', {
        json: { amount: coins, runId: run.runId },
      }),
    );
    expect(credited).toEqual({ status: 200, body: { coinsAdded: coins, balance: coins } });
    const twice = await answer(
      member.fetch(a.origin, 'POST', '/api/coins/add', {
        json: { amount: coins, runId: run.runId },
      }),
    );
    expect(twice.status).toBe(422);

    // B took the score and shows it at once; A within its cache's second (plus one refresh).
    expect(await leaderboardOn(b)).toEqual([scored.body.entry.id]);
    const scoredAt = Date.now();
    let onA = await leaderboardOn(a);
    while (onA.length === 0 && Date.now() - scoredAt < 3000) {
      await sleep(50);
      onA = await leaderboardOn(a);
    }
    expect(onA).toEqual([scored.body.entry.id]);

    // The operator's grant (what `coins:grant` does), then a purchase on A.
    await creditCoins(db, {
      userId: memberId,
      amount: 100,
      reason: 'grant',
      note: 'scale test',
      now: Date.now(),
    });
    const bought = await answer<{ profile: { coins: number } }>(
      member.fetch(a.origin, 'POST', '/api/characters/hardhat/purchase'),
    );
    expect(bought.status, JSON.stringify(bought.body)).toBe(200);
    expect(bought.body.profile.coins).toBe(coins + 100 - 50);
    const boughtAgain = await answer(
      member.fetch(b.origin, 'POST', '/api/characters/hardhat/purchase'),
    );
    expect(boughtAgain.status).toBe(409);

    const profileOnB = await answer(member.fetch(b.origin, 'GET', '/api/user-profile'));
    expect(profileOnB.body).toEqual({
      username: memberName,
      coins: coins + 50,
      selectedCharacterKey: 'default',
    });
    const selected = await answer(member.fetch(b.origin, 'POST', '/api/characters/hardhat/select'));
    expect(selected.status).toBe(200);
    const profileOnA = await answer(member.fetch(a.origin, 'GET', '/api/user-profile'));
    expect(profileOnA.body).toMatchObject({ coins: coins + 50, selectedCharacterKey: 'hardhat' });
    const owned = await answer(member.fetch(b.origin, 'GET', '/api/user-characters'));
    expect(owned.body).toEqual([{ characterKey: 'default' }, { characterKey: 'hardhat' }]);

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
    const owner = new SiteClient(PUBLIC_ORIGIN, clientIp());
    const created = await owner.fetch(b.origin, 'POST', '/api/auth/register', {
      json: { username: target, password: 'password123' },
    });
    expect(created.status).toBe(201);

    const attacker = new SiteClient(PUBLIC_ORIGIN, clientIp());
    const statuses: number[] = [];
    for (let i = 0; i < 12; i++) {
      const node = i % 2 === 0 ? a : b;
      const res = await attacker.fetch(node.origin, 'POST', '/api/auth/login', {
        json: { username: target, password: `wrong-${i}` },
      });
      statuses.push(res.status);
      if (res.status === 429) expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
    }
    // 10 per username and address per window: one node alone would have allowed 10 more.
    expect(statuses).toEqual([...Array<number>(10).fill(401), 429, 429]);
    const rightPassword = await attacker.fetch(a.origin, 'POST', '/api/auth/login', {
      json: { username: target, password: 'password123' },
    });
    expect(rightPassword.status).toBe(429);
    // The owner, from their own address, is not locked out by someone else's guesses.
    const ownerLogin = await owner.fetch(b.origin, 'POST', '/api/auth/login', {
      json: { username: target, password: 'password123' },
    });
    expect(ownerLogin.status).toBe(200);

    const key = `login:user:${target.toLowerCase()}:${attacker.clientIp}`;
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
    const out = await member.fetch(b.origin, 'POST', '/api/auth/logout');
    expect(out.status).toBe(200);
    const me = await answer(member.fetch(a.origin, 'GET', '/api/auth/me'));
    expect(me.body).toEqual({ user: null });

    const store = createS3Store({
      bucket: s3.bucket,
      endpoint: s3.endpoint,
      region: 'us-east-1',
      accessKeyId: 'S3RVER',
      secretAccessKey: 'S3RVER',
      forcePathStyle: true,
    });
    try {
      expect(await findInvariantViolations(db, store)).toEqual([]);
    } finally {
      store.client.destroy();
    }
  });
});
