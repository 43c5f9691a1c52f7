// Crash safety: votes, purchases, score submissions and uploads against a real server process,
// SIGKILL mid-load, a restart on the same data, then: every request answered 2xx before the
// kill is reflected, and every invariant of the stored data holds. SQLite with the local
// store (one laptop) and PostgreSQL with S3 (the fleet's setup).
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Kysely } from 'kysely';
import { sql } from 'kysely';
import sharp from 'sharp';
import { afterAll, describe, expect, it } from 'vitest';
import { authPaths, gamePaths, memePaths, pathTo, shopPaths } from '#shared/api/paths.ts';
import type { VoteType } from '#shared/api/memes.ts';
import { characters } from '#shared/characters.ts';
import { systemClock } from '#server/clock.ts';
import { loadConfig } from '#server/config.ts';
import { createDatabase } from '#server/db/create-database.ts';
import type { Database } from '#server/db/database.ts';
import { voteTransition } from '#server/memes/vote-rules.ts';
import { scoreBody } from '#test-support/honest-run.ts';
import { findInvariantViolations, objectProblem } from '#test-support/invariants.ts';
import { startNode, type NodeProcess } from '#test-support/node-process.ts';
import { playReportedRun, type ReportedRun } from '#test-support/reported-run.ts';
import { startScratchSite } from '#test-support/scratch-site.ts';
import { TestClient, type Reply } from '#test-support/test-client.ts';
import { distinctPng, visitorVoterOf } from '#test-support/gallery.ts';
import type { ObjectStore } from '#server/storage/object-store.ts';
import { createObjectStore } from '#server/storage/create-object-store.ts';
import { establishMembers } from '#test-support/coins.ts';
import { sleep } from '#test-support/sleep.ts';

const adminUrl = process.env.TEST_DATABASE_URL;
const kinds = adminUrl ? (['sqlite', 'postgres'] as const) : (['sqlite'] as const);
if (!adminUrl) {
  console.warn('tests/scale/crash-safety: PostgreSQL part skipped, TEST_DATABASE_URL is not set');
}

const PUBLIC_ORIGIN = 'http://grind.example';
const MEMBERS = 10;
const RUNS_PER_MEMBER = 8;
const VISITORS = 30;
const paid = characters.filter((c) => c.price > 0);

const think = (min: number, max: number) => sleep(min + Math.random() * (max - min));
const tag = randomBytes(3).toString('hex');
let ipCounter = 0;
const nextIp = () => `10.77.${(++ipCounter >> 8) & 255}.${ipCounter & 255}`;

/** A request the client gave up on because the server vanished: it may or may not have landed. */
class Unanswered extends Error {}

/** Sends and reads the whole answer, or throws Unanswered when the connection died. */
async function send(request: () => Promise<Reply>): Promise<Reply> {
  try {
    return await request();
  } catch {
    throw new Unanswered();
  }
}

interface VotePair {
  memeId: number;
  voter: TestClient;
  answered: VoteType | null;
  /** What the unanswered vote leads to if it landed. */
  inFlight: { next: VoteType | null } | null;
}

interface Seen {
  /** Per (visitor, meme): the vote the last answer reported, and a vote still in flight. */
  votes: Map<string, VotePair>;
  purchases: { userId: number; key: string; coins: number }[];
  scores: { id: number; runId: string; score: number }[];
  memes: { id: number; imageUrl: string }[];
  images: string[];
  answered: number;
  unanswered: number;
  refused: string[];
}

describe.each(kinds)('a SIGKILL mid-load on %s', (kind) => {
  const cleanups: (() => Promise<void> | void)[] = [];
  afterAll(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup();
  });

  it('loses no answered write and breaks no invariant', async () => {
    const site = await startScratchSite({
      postgresAdminUrl: kind === 'postgres' ? adminUrl : undefined,
      publicOrigin: PUBLIC_ORIGIN,
      dataDirPrefix: 'grind-crash-',
    });
    cleanups.push(() => site.close());
    const env = site.nodeEnv();
    const dataDir = env.DATA_DIR;
    let node: NodeProcess = await startNode({ env });
    cleanups.push(() => node.kill());

    // The test's own view of the same data, as an operator's tools would have it.
    const config = loadConfig(env);
    const db: Kysely<Database> = createDatabase(config.database);
    const store: ObjectStore = createObjectStore(config, env.SESSION_SECRET, systemClock);
    cleanups.push(async () => {
      await store.close?.();
      await db.destroy();
    });

    // ---- before the load: members with coins, memes to vote on, runs to submit ----------
    const members = await Promise.all(
      Array.from({ length: MEMBERS }, async (_, i) => {
        const client = TestClient.http(PUBLIC_ORIGIN, { clientIp: nextIp() });
        const { id } = await client.register(`crash_${tag}_${i}`, 'password123', {
          node: node.origin,
        });
        return { client, id, runs: [] as ReportedRun[] };
      }),
    );
    // The load is made by established members: past a new account's first-day upload slots.
    await establishMembers(
      db,
      members.map((m) => m.id),
    );
    const uploader = members[0]!;
    const memeIds: number[] = [];
    for (let i = 0; i < 4; i++) {
      const posted = await postMeme(node, uploader.client, `Before the crash ${i}`);
      expect(posted.status).toBe(201);
      memeIds.push(posted.id);
    }
    const reporting: Promise<void>[] = [];
    await Promise.all(
      members.map(async (m) => {
        for (let i = 0; i < RUNS_PER_MEMBER; i++) {
          // Each round reports its progress as it is played, while the next one is issued.
          const played = await playReportedRun(m.client, {
            node: node.origin,
            targetSteps: 60,
            send,
          });
          m.runs.push(played);
          reporting.push(played.reporting);
        }
      }),
    );
    await Promise.all(reporting);
    const playable = Math.max(...members.flatMap((m) => m.runs.map((r) => r.playableAt)));
    await sleep(Math.max(0, playable - Date.now()));

    // ---- the load, and the kill somewhere in the middle of it ---------------------------
    const seen: Seen = {
      votes: new Map(),
      purchases: [],
      scores: [],
      memes: [],
      images: [],
      answered: 0,
      unanswered: 0,
      refused: [],
    };
    let killed = false;
    const loop = async (body: () => Promise<void>) => {
      try {
        while (!killed) await body();
      } catch (error) {
        if (!(error instanceof Unanswered)) throw error;
        seen.unanswered++;
      }
    };
    const expectOk = (what: string, status: number, body: string) => {
      seen.answered++;
      if (status < 200 || status > 299) seen.refused.push(`${what}: ${status} ${body}`);
      return status >= 200 && status <= 299;
    };

    const visitors = Array.from({ length: VISITORS }, () =>
      TestClient.http(PUBLIC_ORIGIN, { clientIp: nextIp() }),
    );
    const voting = visitors.map((visitor, v) =>
      loop(async () => {
        await think(10, 60);
        const memeId = memeIds[Math.floor(Math.random() * memeIds.length)]!;
        const voteType: VoteType = Math.random() < 0.6 ? 'up' : 'down';
        const key = `${v}:${memeId}`;
        const pair = seen.votes.get(key) ?? {
          memeId,
          voter: visitor,
          answered: null,
          inFlight: null,
        };
        seen.votes.set(key, pair);
        pair.inFlight = { next: voteTransition(pair.answered, voteType).next };
        const res = await send(() =>
          visitor.request('POST', pathTo(memePaths.vote, { id: memeId }), {
            node: node.origin,
            body: { voteType },
          }),
        );
        if (expectOk('vote', res.statusCode, res.body))
          pair.answered = res.json<{ myVote: VoteType | null }>().myVote;
        pair.inFlight = null;
      }),
    );
    const buying = members.map((m) =>
      (async () => {
        for (const character of paid) {
          if (killed) return;
          await think(60, 220);
          try {
            const res = await send(() =>
              m.client.request('POST', pathTo(shopPaths.purchase, { key: character.key }), {
                node: node.origin,
              }),
            );
            if (expectOk('purchase', res.statusCode, res.body)) {
              seen.purchases.push({
                userId: m.id,
                key: character.key,
                coins: res.json<{ profile: { coins: number } }>().profile.coins,
              });
            }
          } catch (error) {
            if (!(error instanceof Unanswered)) throw error;
            seen.unanswered++;
            return;
          }
        }
      })(),
    );
    const scoring = members.map((m) =>
      (async () => {
        for (const { run } of m.runs) {
          if (killed) return;
          await think(60, 220);
          try {
            const res = await send(() =>
              m.client.request('POST', gamePaths.scores, {
                node: node.origin,
                body: scoreBody(run, 'x'),
              }),
            );
            if (expectOk('score', res.statusCode, res.body)) {
              const { entry } = res.json<{ entry: { id: number; score: number } }>();
              seen.scores.push({ id: entry.id, runId: run.runId, score: entry.score });
            }
          } catch (error) {
            if (!(error instanceof Unanswered)) throw error;
            seen.unanswered++;
            return;
          }
        }
      })(),
    );
    const uploading = [members[1]!, members[2]!].map((m, u) =>
      loop(async () => {
        const posted = await postMeme(node, m.client, `During the load ${u}`, (objectPath) =>
          seen.images.push(objectPath),
        );
        if (expectOk('meme', posted.status, JSON.stringify(posted)))
          seen.memes.push({ id: posted.id, imageUrl: posted.imageUrl });
      }),
    );

    // Killed once the load is well under way, at a point that differs from run to run.
    const killAfter = 80 + Math.floor(Math.random() * 80);
    const giveUp = Date.now() + 15_000;
    while (seen.answered < killAfter && Date.now() < giveUp) await sleep(10);
    await node.kill();
    killed = true;
    await Promise.all([...voting, ...buying, ...scoring, ...uploading]);

    // The kill came mid-load: requests were in flight, and plenty had been answered.
    expect(seen.unanswered).toBeGreaterThan(0);
    expect(seen.refused).toEqual([]);
    expect(seen.purchases.length).toBeGreaterThan(0);
    expect(seen.scores.length).toBeGreaterThan(0);
    expect(seen.answered).toBeGreaterThanOrEqual(killAfter);

    // ---- restart on the same data ------------------------------------------------------
    node = await startNode({ env });

    if (kind === 'sqlite') {
      const check = await sql<{ integrity_check: string }>`pragma integrity_check`.execute(db);
      expect(check.rows).toEqual([{ integrity_check: 'ok' }]);
    }
    expect(await findInvariantViolations(db, store)).toEqual([]);

    // Every answered vote stands (or, if the pair's next vote was in flight, that one's result).
    const stored = new Map(
      (await db.selectFrom('meme_votes').select(['meme_id', 'voter', 'vote_type']).execute()).map(
        (v) => [`${v.voter}:${v.meme_id}`, v.vote_type],
      ),
    );
    // A visitor's vote is keyed by the id in its signed cookie (memes/voter.ts).
    const voterKey = (client: TestClient) => visitorVoterOf(client, env.SESSION_SECRET);
    let checkedVotes = 0;
    for (const pair of seen.votes.values()) {
      const voter = voterKey(pair.voter);
      if (!voter) continue;
      const now = stored.get(`${voter}:${pair.memeId}`) ?? null;
      const allowed = pair.inFlight ? [pair.answered, pair.inFlight.next] : [pair.answered];
      expect(allowed, `vote ${voter} on ${pair.memeId}`).toContain(now);
      checkedVotes++;
    }
    expect(checkedVotes).toBeGreaterThan(0);

    for (const p of seen.purchases) {
      const debit = await db
        .selectFrom('coin_ledger')
        .select('balance_after')
        .where('user_id', '=', p.userId)
        .where('character_key', '=', p.key)
        .where('reason', '=', 'purchase')
        .executeTakeFirst();
      expect(debit, `purchase ${p.userId}/${p.key}`).toEqual({ balance_after: p.coins });
    }
    const scoreRows = await db
      .selectFrom('game_scores')
      .select(['id', 'run_id', 'score'])
      .execute();
    const scoresById = new Map(scoreRows.map((s) => [s.id, s]));
    for (const s of seen.scores) {
      expect(scoresById.get(s.id), `score ${s.id}`).toEqual({
        id: s.id,
        run_id: s.runId,
        score: s.score,
      });
    }
    for (const m of seen.memes) {
      const served = await fetch(new URL(m.imageUrl, node.origin));
      expect(served.status, m.imageUrl).toBe(200);
      await sharp(Buffer.from(await served.arrayBuffer()), { failOn: 'truncated' }).stats();
    }
    const memeRows = await db.selectFrom('memes').select('id').execute();
    expect(memeRows.map((r) => r.id)).toEqual(expect.arrayContaining(seen.memes.map((m) => m.id)));
    for (const objectPath of seen.images) {
      const key = objectPath.replace(/^\/objects\//, '');
      expect(await objectProblem(store, key), objectPath).toBeNull();
    }

    if (kind === 'sqlite') {
      // Whatever the kill left half-written stays out of reach: only complete, content-named
      // images are served, and every file under a servable name decodes to the end.
      const objectsDir = path.join(dataDir, 'objects');
      const leftovers = fs.existsSync(path.join(objectsDir, '.tmp'))
        ? fs.readdirSync(path.join(objectsDir, '.tmp'))
        : [];
      for (const file of leftovers) {
        expect((await fetch(new URL(`/objects/.tmp/${file}`, node.origin))).status).toBe(404);
      }
      const memeFiles = fs.existsSync(path.join(objectsDir, 'memes'))
        ? fs.readdirSync(path.join(objectsDir, 'memes'))
        : [];
      expect(memeFiles.length).toBeGreaterThan(0);
      for (const file of memeFiles)
        expect(await objectProblem(store, `memes/${file}`), file).toBeNull();
    }

    // The restarted node carries on: sessions, votes, purchases and runs all work.
    const after = members[3]!;
    const me = await after.client.request('GET', authPaths.me, { node: node.origin });
    expect(me.statusCode).toBe(200);
    expect(me.json<{ user: { id: number } }>().user.id).toBe(after.id);
    const vote = await visitors[0]!.request('POST', pathTo(memePaths.vote, { id: memeIds[0]! }), {
      node: node.origin,
      body: { voteType: 'up' },
    });
    expect(vote.statusCode).toBe(200);
    const owned = await db
      .selectFrom('owned_characters')
      .select('character_key')
      .where('user_id', '=', after.id)
      .execute();
    const next = paid.find((c) => !owned.some((o) => o.character_key === c.key));
    if (next) {
      const bought = await after.client.request(
        'POST',
        pathTo(shopPaths.purchase, { key: next.key }),
        { node: node.origin },
      );
      expect(bought.statusCode).toBe(200);
    }
    expect(await findInvariantViolations(db, store)).toEqual([]);
  }, 90_000);
});

/** The member's whole upload flow; the meme's id and image path, or the status that refused. */
async function postMeme(
  node: NodeProcess,
  client: TestClient,
  title: string,
  onProcessed?: (objectPath: string) => void,
): Promise<{ status: number; id: number; imageUrl: string }> {
  const target = await send(() =>
    client.request('POST', memePaths.uploadTarget, { node: node.origin }),
  );
  if (target.statusCode !== 200) return { status: target.statusCode, id: 0, imageUrl: '' };
  // A picture of its own: plain colours all look alike to the duplicate check.
  const png = await distinctPng(96, 64);
  const { uploadURL } = target.json<{ uploadURL: string }>();
  const putStatus = uploadURL.startsWith('/')
    ? (
        await send(() =>
          client.request('PUT', uploadURL, {
            node: node.origin,
            body: png,
            headers: { 'content-type': 'image/png' },
            csrf: false,
          }),
        )
      ).statusCode
    : // Straight to the bucket, as the browser would.
      (
        await fetch(uploadURL, {
          method: 'PUT',
          body: new Uint8Array(png),
          headers: { 'content-type': 'image/png' },
        }).catch(() => {
          throw new Unanswered();
        })
      ).status;
  if (putStatus !== 200) return { status: putStatus, id: 0, imageUrl: '' };
  const processed = await send(() =>
    client.request('PUT', memePaths.memeImages, {
      node: node.origin,
      body: { imageUrl: uploadURL },
    }),
  );
  if (processed.statusCode !== 200) return { status: processed.statusCode, id: 0, imageUrl: '' };
  const { objectPath } = processed.json<{ objectPath: string }>();
  onProcessed?.(objectPath);
  const created = await send(() =>
    client.request('POST', memePaths.create, {
      node: node.origin,
      body: { title, category: 'office-life', imageUrl: objectPath },
    }),
  );
  if (created.statusCode !== 201) return { status: created.statusCode, id: 0, imageUrl: '' };
  const { meme } = created.json<{ meme: { id: number; imageUrl: string } }>();
  return { status: 201, id: meme.id, imageUrl: meme.imageUrl };
}
