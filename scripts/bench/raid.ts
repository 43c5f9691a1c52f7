/**
 * npm run bench:raid (issue 43, docs/decisions/027-raid-day.md): a raid played against a running
 * site (a listening app on a fresh SQLite database, its real clock, behind one trusted proxy hop so
 * each caller has its own address). RAID_ACCOUNTS new accounts (default 1,000) from RAID_NETWORKS
 * networks (default 300: half IPv4 addresses, half IPv6 /64s from ten /48s) over RAID_MINUTES
 * (default 5) sign up, post a meme, vote honest memes down and report them, while HONEST members
 * (default 50, a week old with runs and memes: trusted) and visitors read, vote and post. Three
 * runs: idle (honest only), raid mode off (thresholds out of reach), raid mode on (the default
 * thresholds, entered by themselves). Printed side by side: raid memes visible to visitors, honest
 * memes hidden by reports, honest votes lost, honest p95 against idle, time until a moderator is
 * alerted (a local fake of Discord's webhook receives it). A raider solves the sign-up's proof of
 * work when asked, as a script would. The image classifier is off here (bench:screen measures it).
 */
import http from 'node:http';
import { solveChallenge, type Challenge } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/pbkdf2';
import sharp from 'sharp';
import { authPaths, memePaths, pathTo } from '#shared/api/paths.ts';
import { raidPaths } from '#shared/api/raid.ts';
import { DAY_MS } from '#shared/time.ts';
import { buildApp } from '#server/app.ts';
import { loadConfig, type AppConfig } from '#server/config.ts';
import { insertMeme } from '#server/memes/repository.ts';
import { createTestDatabase } from '#test-support/test-database.ts';
import { TestClient } from '#test-support/test-client.ts';
import { freePort } from '#test-support/node-process.ts';
import { listenOnLoopback } from '#test-support/loopback.ts';

const ACCOUNTS = Number(process.env.RAID_ACCOUNTS ?? 1000);
const NETWORKS = Number(process.env.RAID_NETWORKS ?? 300);
const MINUTES = Number(process.env.RAID_MINUTES ?? 5);
const HONEST = Number(process.env.RAID_HONEST ?? 50);
const DURATION_MS = MINUTES * 60_000;

function network(i: number): string {
  const n = i % NETWORKS;
  if (n < NETWORKS / 2) return `198.18.${Math.floor(n / 250)}.${(n % 250) + 1}`;
  const v6 = n - Math.ceil(NETWORKS / 2);
  return `2001:db8:${(v6 % 10).toString(16)}:${Math.floor(v6 / 10).toString(16)}::1`;
}

async function picture(seed: number): Promise<Buffer> {
  const cells = Buffer.alloc(8 * 8 * 3);
  let s = (seed * 2654435761) >>> 0;
  for (let i = 0; i < cells.length; i++) {
    s = (Math.imul(s ^ (s >>> 15), 0x2c1b3c6d) + 0x6d2b79f5) >>> 0;
    cells[i] = s >>> 24;
  }
  return sharp(cells, { raw: { width: 8, height: 8, channels: 3 } })
    .resize(64, 48, { kernel: 'nearest' })
    .png()
    .toBuffer();
}

async function fakeDiscord() {
  let firstAt: number | null = null;
  const server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      firstAt ??= Date.now();
      res.writeHead(204).end();
    });
  });
  const port = await listenOnLoopback(server);
  return {
    url: `http://127.0.0.1:${port}/webhook`,
    firstAt: () => firstAt,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

const p95 = (ms: number[]) => {
  const sorted = [...ms].sort((a, b) => a - b);
  return sorted.length ? sorted[Math.floor(0.95 * (sorted.length - 1))]! : NaN;
};

interface Result {
  accounts: number;
  raidMemesVisible: number;
  raidMemes: number;
  honestHidden: number;
  honestVotesLost: number;
  honestVotes: number;
  honestP95: number;
  alertAfterS: number | null;
}

async function play(mode: 'idle' | 'off' | 'on'): Promise<Result> {
  const discord = await fakeDiscord();
  const db0 = await createTestDatabase('sqlite', { migrated: true });
  const port = await freePort();
  const config: AppConfig = {
    ...loadConfig({
      NODE_ENV: 'test',
      DATA_DIR: db0.dataDir,
      SESSION_SECRET: 'bench-secret-'.padEnd(48, 'x'),
      TRUST_PROXY: 'true',
      PUBLIC_ORIGIN: `http://127.0.0.1:${port}`,
      DISCORD_WEBHOOK_URL: discord.url,
      SCREEN_IMAGES: 'false',
      LOG_LEVEL: 'silent',
    }),
    database: db0.database,
    clientDistDir: undefined,
  };
  const app = await buildApp(config, { logger: false });
  const origin = await app.listen({ port, host: '127.0.0.1' });
  const db = app.deps.db;
  if (mode === 'off') {
    await db
      .updateTable('raid_mode')
      .set({ signups_per_hour: 1e6, new_posts_per_hour: 1e6, reports_per_hour: 1e6 })
      .execute();
  }
  // Honest members: a week old, three finished runs and three memes each (trusted).
  const now = Date.now();
  const honest: TestClient[] = [];
  const honestMemes: number[] = [];
  for (let i = 0; i < HONEST; i++) {
    const client = TestClient.http(origin, { clientIp: `203.0.113.${i + 1}` });
    const user = await client.register(`honest_${i}`);
    await db
      .updateTable('users')
      .set({ created_at: now - 8 * DAY_MS })
      .where('id', '=', user.id)
      .execute();
    for (let r = 0; r < 3; r++) {
      await db
        .insertInto('game_runs')
        .values({ id: `h${i}-${r}`, seed: 1, user_id: user.id, issued_at: now, verified_at: now })
        .execute();
      const row = await insertMeme(db, {
        userId: user.id,
        title: `Honest ${i}.${r}`,
        category: 'office-life',
        imageKey: `memes/${(i * 3 + r + 1).toString(16).padStart(64, '0')}.jpg`,
        thumbnailKey: `memes/${(i * 3 + r + 1).toString(16).padStart(64, '0')}-thumb.webp`,
        thumbnailWidth: 400,
        thumbnailHeight: 300,
        now: now - 2 * DAY_MS,
      });
      honestMemes.push(row.id);
    }
    honest.push(client);
  }
  const started = Date.now();
  const end = started + DURATION_MS;
  const latencies: number[] = [];
  let honestVotes = 0;
  let honestVotesLost = 0;
  const timed = async (call: () => Promise<{ statusCode: number }>) => {
    const t0 = performance.now();
    const res = await call();
    latencies.push(performance.now() - t0);
    return res;
  };
  // Honest traffic: each member every ~2 s reads the gallery and votes; visitors read and vote.
  const honestLoop = async (client: TestClient, i: number) => {
    let k = 0;
    while (Date.now() < end) {
      await timed(() => client.request('GET', `${memePaths.list}?sort=new`));
      const id = honestMemes[(i * 7 + k++) % honestMemes.length]!;
      honestVotes++;
      const res = await timed(() =>
        client.request('POST', pathTo(memePaths.vote, { id }), { body: { voteType: 'up' } }),
      );
      if (res.statusCode !== 200) honestVotesLost++;
      await new Promise((r) => setTimeout(r, 1500 + ((i * 97) % 1000)));
    }
  };
  const raidMemeIds: number[] = [];
  let accounts = 0;
  const raider = async (i: number) => {
    const client = TestClient.http(origin, { clientIp: network(i) });
    const name = `raid_${mode}_${i}`;
    let res = await client.request('POST', authPaths.register, {
      body: { username: name, password: 'password123' },
      csrf: false,
    });
    if (res.statusCode === 403) {
      const challenge = (await client.request('GET', raidPaths.challenge)).json<Challenge>();
      const solution = await solveChallenge({ challenge, deriveKey });
      const altcha = Buffer.from(JSON.stringify({ challenge, solution })).toString('base64');
      res = await client.request('POST', authPaths.register, {
        body: { username: name, password: 'password123', altcha },
        csrf: false,
      });
    }
    if (res.statusCode !== 201) return;
    accounts++;
    const target = await client.request('POST', memePaths.uploadTarget);
    if (target.statusCode === 200) {
      const { uploadURL } = target.json<{ uploadURL: string }>();
      const put = await fetch(new URL(uploadURL, origin), {
        method: 'PUT',
        body: new Uint8Array(await picture(i + 1)),
        headers: { 'content-type': 'image/png', 'x-forwarded-for': network(i) },
      });
      const processed =
        put.ok &&
        (await client.request('PUT', memePaths.memeImages, { body: { imageUrl: uploadURL } }));
      if (processed && processed.statusCode === 200) {
        const posted = await client.request('POST', memePaths.create, {
          body: {
            title: `FREE AIRDROP ${i}`,
            category: 'overtime',
            imageUrl: processed.json<{ objectPath: string }>().objectPath,
          },
        });
        if (posted.statusCode === 201)
          raidMemeIds.push(posted.json<{ meme: { id: number } }>().meme.id);
      }
    }
    for (let k = 0; k < 3; k++) {
      const id = honestMemes[(i * 13 + k) % honestMemes.length]!;
      await client.request('POST', pathTo(memePaths.vote, { id }), { body: { voteType: 'down' } });
    }
    for (let k = 0; k < 2; k++) {
      const id = honestMemes[(i * 5 + k) % honestMemes.length]!;
      await client.request('POST', pathTo(memePaths.report, { id }), { body: { reason: 'spam' } });
    }
  };
  const raid = async () => {
    if (mode === 'idle') return;
    const running = new Set<Promise<void>>();
    for (let i = 0; i < ACCOUNTS; i++) {
      // Spread over the duration; at most 8 raiders at once (the bench's own CPU is the limit).
      const due = started + (i * DURATION_MS) / ACCOUNTS;
      if (Date.now() >= end) break;
      if (due > Date.now()) await new Promise((r) => setTimeout(r, due - Date.now()));
      while (running.size >= 8) await Promise.race(running);
      const p = raider(i)
        .catch(() => undefined)
        .finally(() => running.delete(p));
      running.add(p);
    }
    await Promise.all(running);
  };
  await Promise.all([raid(), ...honest.map((c, i) => honestLoop(c, i))]);
  // Let the trigger and the alert sender have their last look (15 s and 5 s timers).
  await new Promise((r) => setTimeout(r, 6_000));
  const visible = raidMemeIds.length
    ? await db
        .selectFrom('memes')
        .select('id')
        .where('id', 'in', raidMemeIds)
        .where('hidden', '=', 0)
        .execute()
    : [];
  const hidden = await db
    .selectFrom('memes')
    .select('id')
    .where('id', 'in', honestMemes)
    .where('hidden', '=', 1)
    .execute();
  const alertAt = discord.firstAt();
  app.server.closeAllConnections();
  await app.close();
  await discord.close();
  await db0.drop();
  return {
    accounts,
    raidMemes: raidMemeIds.length,
    raidMemesVisible: visible.length,
    honestHidden: hidden.length,
    honestVotes,
    honestVotesLost,
    honestP95: p95(latencies),
    alertAfterS: alertAt === null ? null : (alertAt - started) / 1000,
  };
}

const idle = await play('idle');
const off = await play('off');
const on = await play('on');
const row = (label: string, f: (r: Result) => string) =>
  console.log(`${label.padEnd(40)}${f(off).padStart(16)}${f(on).padStart(16)}`);
console.log(
  `Raid: ${ACCOUNTS} new accounts from ${NETWORKS} networks over ${MINUTES} min; ${HONEST} honest members; idle honest p95 ${idle.honestP95.toFixed(0)} ms`,
);
console.log(`${''.padEnd(40)}${'raid mode off'.padStart(16)}${'raid mode on'.padStart(16)}`);
row('raid accounts created', (r) => String(r.accounts));
row('raid memes posted', (r) => String(r.raidMemes));
row('raid memes visible to visitors', (r) => String(r.raidMemesVisible));
row('honest memes hidden by reports', (r) => `${r.honestHidden} of ${HONEST * 3}`);
row('honest votes lost', (r) => `${r.honestVotesLost} of ${r.honestVotes}`);
row(
  'honest p95 (x idle)',
  (r) => `${r.honestP95.toFixed(0)} ms (${(r.honestP95 / idle.honestP95).toFixed(1)}x)`,
);
row('moderator alerted after', (r) =>
  r.alertAfterS === null ? 'never' : `${r.alertAfterS.toFixed(0)} s`,
);
process.exit(0);
