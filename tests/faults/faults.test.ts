// Faults under load: while a mixed load runs (reads, votes, purchases, runs and scores,
// uploads), each dependency fails in turn by real means on this machine: our own PostgreSQL
// cluster stopped and started, our own redis-server stopped and started, the S3 server behind
// a proxy that answers 500 and then answers after 2 s, a node SIGKILLed and restarted, 200 ms
// added to every database answer by the proxy. After each: every 2xx is reflected, every 5xx
// is a clean 503 with Retry-After, nothing waits past STATED_TIMEOUT_MS, /readyz follows the
// dependency, the stored data's invariants hold, and the nodes recover by themselves.
// Decisions: docs/decisions/015-dependency-failures.md. Run alone: `npm run faults`.
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { sql, type Kysely } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import type { VoteType } from '#shared/api/memes.ts';
import { characters } from '#shared/characters.ts';
import { weekStartUtc } from '#shared/time.ts';
import { systemClock } from '#server/clock.ts';
import { loadConfig } from '#server/config.ts';
import { createDatabase } from '#server/db/create-database.ts';
import type { Database } from '#server/db/database.ts';
import { UNAVAILABLE_MESSAGE } from '#server/http/unavailable.ts';
import { voteTransition } from '#server/memes/vote-rules.ts';
import { establishMembers } from '#test-support/coins.ts';
import { findInvariantViolations } from '#test-support/invariants.ts';
import { createObjectStore } from '#server/storage/create-object-store.ts';
import type { ObjectStore } from '#server/storage/object-store.ts';
import { createS3Store } from '#server/storage/s3.ts';
import { startFaultProxy, type FaultProxy } from '#test-support/fault-proxy.ts';
import { playHonestly, scoreBody, sendProgressReports } from '#test-support/honest-run.ts';
import { progressPath } from '#shared/api/game.ts';
import { freePort, startNode, type NodeProcess } from '#test-support/node-process.ts';
import {
  postgresBinDir,
  redisServerPath,
  startOwnPostgres,
  startOwnRedis,
  type OwnPostgres,
  type OwnRedis,
} from '#test-support/own-services.ts';
import { newSessionSecret, scratchDir, startScratchS3 } from '#test-support/scratch.ts';
import {
  TestClient,
  type Method,
  type Reply,
  type RequestOptions,
} from '#test-support/test-client.ts';
import { distinctPng, visitorVoterOf } from '#test-support/gallery.ts';
import { authPaths, gamePaths, memePaths, shopPaths, pathTo } from '#shared/api/paths.ts';
import { sleep } from '#test-support/sleep.ts';

/** No request may go unanswered longer than this (pool wait 5 s + statement 10 s, decision 015). */
const STATED_TIMEOUT_MS = 15_000;
/** How long each fault is held while the load runs. */
const HOLD_MS = 1_200;
/** The most a node may take to notice a dependency going away or coming back (readiness). */
const NOTICE_MS = 10_000;

const PUBLIC_ORIGIN = 'http://grind.example';
const MEMBERS = 4;
const VISITORS = 6;
const paid = characters.filter((c) => c.price > 0);

const pgBin = postgresBinDir();
const redisBin = redisServerPath();
if (!pgBin || !redisBin) {
  console.warn(
    "tests/faults: skipped, needs Debian's PostgreSQL (initdb, pg_ctl) and redis-server",
  );
}

const think = (min: number, max: number) => sleep(min + Math.random() * (max - min));
const tag = randomBytes(3).toString('hex');
let ipCounter = 0;
const nextIp = () => `10.88.${(++ipCounter >> 8) & 255}.${ipCounter & 255}`;

/** What one phase saw: figures for the note, and every broken promise. */
interface PhaseLog {
  name: string;
  requests: number;
  ok: number;
  unavailable: number;
  refused4xx: Record<number, number>;
  /** Lost mid-request (the node died): these may or may not have landed. */
  unanswered: number;
  /** Refused by every node before anything was sent (all nodes down). */
  connectionRefused: number;
  slowestMs: number;
  /** From the fault to every node's /readyz saying so. */
  noticedMs?: number;
  /** From the dependency's return to every node ready again. */
  recoveredMs?: number;
  /** 5xx answers after recovery (must be none). */
  afterRecovery5xx: number;
  violations: string[];
}

interface VotePair {
  memeId: number;
  voter: TestClient;
  answered: VoteType | null;
  /** Outcomes still possible from votes whose answer was lost or refused with 503. */
  maybe: (VoteType | null)[];
  /** What the vote on its way may leave (the data is checked while the load runs). */
  pending: (VoteType | null)[];
  /** What happened to this pair's votes, for a failure message. */
  history: string[];
  /**
   * Every outcome the pair could have shown while a check read the stored votes: the load keeps
   * voting during that read, so a vote answered after the read began may not be in it yet.
   */
  during?: Set<VoteType | null>;
}

/** The pair's possible stored outcomes now, and kept for a check whose read is under way. */
function possibleOutcomes(pair: VotePair): (VoteType | null)[] {
  const now = [pair.answered, ...pair.maybe, ...pair.pending];
  for (const outcome of now) pair.during?.add(outcome);
  return now;
}

/** The site as a balancer sees it: a fixed list of node addresses, some of them down at times. */
class Site {
  phase!: PhaseLog;
  recoveredAt = Infinity;
  private turn = 0;
  constructor(
    readonly origins: string[],
    /** The nodes' own output, for failure messages. */
    private readonly output: () => string = () => '',
  ) {}

  /**
   * One request through the "balancer": the next node in turn, and the other one if this one
   * refuses the connection (nothing was sent). Answers the status and body, or null when the
   * answer never came (node killed mid-request): such a request may or may not have landed.
   */
  async send<T = Record<string, unknown>>(
    client: TestClient,
    method: Method,
    urlPath: string,
    options: Pick<RequestOptions, 'body' | 'headers' | 'csrf'> = {},
  ): Promise<{ status: number; body: T } | null> {
    const log = this.phase;
    const started = Date.now();
    const first = this.turn++ % this.origins.length;
    for (let attempt = 0; attempt < this.origins.length; attempt++) {
      const origin = this.origins[(first + attempt) % this.origins.length]!;
      let res: Reply;
      try {
        res = await client.request(method, urlPath, {
          ...options,
          node: origin,
          signal: AbortSignal.timeout(STATED_TIMEOUT_MS),
        });
      } catch (error) {
        const cause = (error as { cause?: { code?: string } }).cause;
        if (cause?.code === 'ECONNREFUSED') continue;
        log.requests++;
        if ((error as Error).name === 'TimeoutError') {
          log.violations.push(`${method} ${urlPath}: no answer within ${STATED_TIMEOUT_MS} ms`);
        } else {
          log.unanswered++;
        }
        return null;
      }
      const ms = Date.now() - started;
      log.requests++;
      log.slowestMs = Math.max(log.slowestMs, ms);
      if (res.statusCode >= 200 && res.statusCode < 300) log.ok++;
      else if (res.statusCode < 500)
        log.refused4xx[res.statusCode] = (log.refused4xx[res.statusCode] ?? 0) + 1;
      if (res.statusCode >= 500) {
        if (Date.now() > this.recoveredAt) log.afterRecovery5xx++;
        const clean =
          res.statusCode === 503 &&
          Number(res.headers['retry-after']) > 0 &&
          res.body === JSON.stringify({ message: UNAVAILABLE_MESSAGE, code: 'UNAVAILABLE' });
        if (clean) log.unavailable++;
        else
          log.violations.push(`${method} ${urlPath}: ${res.statusCode} ${res.body.slice(0, 300)}`);
      }
      // A session or CSRF token lost to a fault would show as these: no fault may cost them.
      if (res.statusCode === 401 || res.statusCode === 403) {
        log.violations.push(`${method} ${urlPath}: ${res.statusCode} ${res.body.slice(0, 200)}`);
      }
      let body: unknown = res.body;
      try {
        body = JSON.parse(res.body);
      } catch {
        // an image or a page
      }
      return { status: res.statusCode, body: body as T };
    }
    log.connectionRefused++;
    return null;
  }

  /** Every node's /readyz: its status, or 0 when the node does not answer. */
  async readiness(): Promise<{ status: number; body: { status?: string; degraded?: string[] } }[]> {
    return Promise.all(
      this.origins.map(async (origin) => {
        try {
          const res = await fetch(new URL('/readyz', origin), {
            signal: AbortSignal.timeout(5_000),
          });
          return {
            status: res.status,
            body: (await res.json()) as { status?: string; degraded?: string[] },
          };
        } catch {
          return { status: 0, body: {} };
        }
      }),
    );
  }

  /** Waits until `test` holds for every node's readiness; the milliseconds it took. */
  async waitForReadiness(
    test: (r: { status: number; body: { degraded?: string[] } }) => boolean,
    what: string,
  ): Promise<number> {
    const started = Date.now();
    for (;;) {
      const all = await this.readiness();
      if (all.every(test)) return Date.now() - started;
      if (Date.now() - started > NOTICE_MS) {
        throw new Error(
          `${what}: readiness after ${NOTICE_MS} ms: ${JSON.stringify(all)}\n${this.output()}`,
        );
      }
      await sleep(100);
    }
  }
}

const ready = (r: { status: number; body: { degraded?: string[] } }) =>
  r.status === 200 && !r.body.degraded;

interface Setup {
  name: string;
  nodes: NodeProcess[];
  nodeEnvs: Record<string, string | undefined>[];
  db: Kysely<Database>;
  store: ObjectStore;
  phases: { name: string; run: (site: Site, setup: Setup) => Promise<void> }[];
}

const cleanups: (() => Promise<unknown> | unknown)[] = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await Promise.resolve(cleanup()).catch(() => {});
});

async function startNodes(envs: Record<string, string | undefined>[]): Promise<NodeProcess[]> {
  const nodes: NodeProcess[] = [];
  // One after the other: both would race to migrate the empty database.
  for (const env of envs) {
    const node = await startNode({ env });
    nodes.push(node);
    cleanups.push(() => nodes[nodes.indexOf(node)]?.kill());
  }
  return nodes;
}

function nodeEnv(base: Record<string, string | undefined>): Record<string, string | undefined> {
  const dataDir = scratchDir('grind-faults-node-');
  cleanups.push(() => fs.rmSync(dataDir, { recursive: true, force: true }));
  return {
    ...base,
    DATA_DIR: base.DATA_DIR ?? dataDir,
    CLIENT_DIST_DIR: path.join(dataDir, 'no-client'),
  };
}

async function sqliteSetup(redis: OwnRedis): Promise<Setup> {
  const dataDir = scratchDir('grind-faults-sqlite-');
  cleanups.push(() => fs.rmSync(dataDir, { recursive: true, force: true }));
  const port = await freePort();
  const env = nodeEnv({
    DATA_DIR: dataDir,
    PORT: String(port),
    SESSION_SECRET: newSessionSecret(),
    PUBLIC_ORIGIN,
    TRUST_PROXY: 'true',
    REDIS_URL: redis.url,
  });
  const nodes = await startNodes([env]);
  const config = loadConfig(env);
  const db = createDatabase(config.database);
  const store = createObjectStore(config, env.SESSION_SECRET!, systemClock);
  cleanups.push(() => db.destroy());
  return {
    name: 'one node on SQLite + local disk, rate limits in Redis',
    nodes,
    nodeEnvs: [env],
    db,
    store,
    phases: [
      { name: 'Redis stopped, then started', run: (site) => redisPhase(site, redis) },
      { name: 'the node killed and restarted', run: (site, setup) => nodePhase(site, setup, 0) },
    ],
  };
}

async function postgresSetup(redis: OwnRedis): Promise<Setup> {
  const postgres: OwnPostgres = await startOwnPostgres(pgBin!);
  cleanups.push(() => postgres.destroy());
  const s3 = await startScratchS3();
  cleanups.push(() => s3.close());
  const pgProxy = await startFaultProxy({ port: postgres.port });
  const s3Proxy = await startFaultProxy({ port: Number(new URL(s3.endpoint).port) });
  cleanups.push(
    () => pgProxy.close(),
    () => s3Proxy.close(),
  );
  const secret = newSessionSecret();
  // The test's own view, as an operator's tools would have it: straight to the services.
  const db = createDatabase({ kind: 'postgres', url: postgres.adminUrl });
  // The nodes serve as an app role and migrate as the owner (docs/deployment.md).
  const appPassword = randomBytes(12).toString('hex');
  await sql`create role grind_app login password ${sql.lit(appPassword)}`.execute(db);
  const ports = [await freePort(), await freePort()];
  const envs = ports.map((port) =>
    nodeEnv({
      PORT: String(port),
      // The nodes reach PostgreSQL and the bucket through the fault proxies.
      DATABASE_URL: `postgres://grind_app:${appPassword}@${pgProxy.host}/postgres`,
      DATABASE_MIGRATION_URL: `postgres://postgres@${pgProxy.host}/postgres`,
      ...s3.env,
      S3_ENDPOINT: `http://${s3Proxy.host}`,
      SESSION_SECRET: secret,
      PUBLIC_ORIGIN,
      TRUST_PROXY: 'true',
      REDIS_URL: redis.url,
    }),
  );
  const nodes = await startNodes(envs);
  const s3Store = createS3Store(s3.config);
  cleanups.push(
    () => db.destroy(),
    () => s3Store.client.destroy(),
  );
  return {
    name: 'two nodes on PostgreSQL + S3, rate limits in Redis',
    nodes,
    nodeEnvs: envs,
    db,
    store: s3Store,
    phases: [
      { name: 'PostgreSQL restarted', run: (site) => postgresPhase(site, postgres) },
      { name: 'Redis stopped, then started', run: (site) => redisPhase(site, redis) },
      { name: 'S3 answering 500, then answering after 2 s', run: (site) => s3Phase(site, s3Proxy) },
      { name: 'one node killed and restarted', run: (site, setup) => nodePhase(site, setup, 0) },
      { name: '200 ms added to every database answer', run: (site) => latencyPhase(site, pgProxy) },
    ],
  };
}

async function postgresPhase(site: Site, postgres: OwnPostgres) {
  await postgres.stop();
  site.phase.noticedMs = await site.waitForReadiness((r) => r.status === 503, 'PostgreSQL stopped');
  await sleep(HOLD_MS);
  expect(
    site.phase.unavailable,
    'requests refused with 503 while PostgreSQL was down',
  ).toBeGreaterThan(0);
  await postgres.start();
  site.phase.recoveredMs = await site.waitForReadiness(ready, 'PostgreSQL started');
}

async function redisPhase(site: Site, redis: OwnRedis) {
  await redis.stop();
  // The SQL counters stand in: the node stays in service and says it is degraded.
  site.phase.noticedMs = await site.waitForReadiness(
    (r) => r.status === 200 && (r.body.degraded?.length ?? 0) > 0,
    'Redis stopped',
  );
  await sleep(HOLD_MS);
  await redis.start();
  site.phase.recoveredMs = await site.waitForReadiness(ready, 'Redis started');
}

async function s3Phase(site: Site, proxy: FaultProxy) {
  proxy.set({ kind: 'http-500' });
  site.phase.noticedMs = await site.waitForReadiness((r) => r.status === 503, 'S3 answering 500');
  await sleep(HOLD_MS);
  expect(site.phase.unavailable, 'requests refused with 503 while S3 answered 500').toBeGreaterThan(
    0,
  );
  // Slow but answering: served, late.
  proxy.set({ kind: 'delay', delayMs: 2_000 });
  await site.waitForReadiness(ready, 'S3 answering after 2 s');
  await sleep(HOLD_MS + 2_000);
  proxy.set({ kind: 'pass' });
  site.phase.recoveredMs = await site.waitForReadiness(ready, 'S3 answering again');
}

async function nodePhase(site: Site, setup: Setup, index: number) {
  await setup.nodes[index]!.kill();
  site.phase.noticedMs = 0;
  await sleep(HOLD_MS);
  const started = Date.now();
  setup.nodes[index] = await startNode({ env: setup.nodeEnvs[index]! });
  site.phase.recoveredMs = Date.now() - started;
}

async function latencyPhase(site: Site, proxy: FaultProxy) {
  proxy.set({ kind: 'delay', delayMs: 200 });
  await sleep(HOLD_MS * 2);
  // Slow is not down: every node stays ready throughout.
  expect((await site.readiness()).map((r) => r.status)).toEqual(site.origins.map(() => 200));
  proxy.set({ kind: 'pass' });
  site.phase.recoveredMs = await site.waitForReadiness(ready, 'latency removed');
}

const newPhase = (name: string): PhaseLog => ({
  name,
  requests: 0,
  ok: 0,
  unavailable: 0,
  refused4xx: {},
  unanswered: 0,
  connectionRefused: 0,
  slowestMs: 0,
  afterRecovery5xx: 0,
  violations: [],
});

const setups = [
  { kind: 'sqlite', make: sqliteSetup },
  { kind: 'postgres', make: postgresSetup },
] as const;

// The two setups run side by side: most of each is waiting for a fault to be noticed or healed.
describe.concurrent('faults under load', () => {
  for (const { kind, make } of setups) {
    it.skipIf(!pgBin || !redisBin)(
      `on ${kind}: keeps every promise while each dependency fails in turn`,
      async () => {
        const redis = await startOwnRedis(redisBin!);
        cleanups.push(() => redis.stop());
        const setup = await make(redis);
        cleanups.push(() => Promise.all(setup.nodes.map((n) => n.kill())));
        const site = new Site(
          setup.nodes.map((n) => n.origin),
          () => setup.nodes.map((n) => n.output().slice(-3000)).join('\n---\n'),
        );
        site.phase = newPhase('before the faults');
        const phases: PhaseLog[] = [];

        // ---- members with coins, memes to vote on ------------------------------------------
        const members = await Promise.all(
          Array.from({ length: MEMBERS }, async (_, i) => {
            const client = TestClient.http(PUBLIC_ORIGIN, { clientIp: nextIp() });
            const reg = await site.send<{ user: { id: number } }>(
              client,
              'POST',
              authPaths.register,
              {
                body: { username: `fault_${tag}_${i}`, password: 'password123' },
                csrf: false,
              },
            );
            expect(reg?.status).toBe(201);
            await client.token(setup.nodes[0]!.origin);
            return { client, id: reg!.body.user.id };
          }),
        );
        // The load is made by established members: past a new account's first-day upload slots.
        await establishMembers(
          setup.db,
          members.map((m) => m.id),
        );
        const memeIds: number[] = [];
        const memes: { id: number; imageUrl: string }[] = [];
        for (let i = 0; i < 3; i++) {
          const posted = await postMeme(site, members[0]!.client, `Before the faults ${i}`);
          expect(posted?.id, 'a meme posted before the faults').toBeGreaterThan(0);
          memeIds.push(posted!.id);
          memes.push(posted!);
        }

        // ---- what the load saw answered 2xx ------------------------------------------------
        const votes = new Map<string, VotePair>();
        const purchases: { userId: number; key: string; coins: number }[] = [];
        const runsIssued: string[] = [];
        const scores: { id: number; runId: string; score: number }[] = [];
        const credits: { runId: string; coins: number }[] = [];
        let running = true;
        const scoreGate = new Gate();
        const loop = (body: () => Promise<void>) =>
          (async () => {
            while (running) await body();
          })();

        const visitors = Array.from({ length: VISITORS }, () =>
          TestClient.http(PUBLIC_ORIGIN, { clientIp: nextIp() }),
        );
        for (const v of visitors) await v.token(setup.nodes[0]!.origin);
        const load = [
          ...visitors.map((visitor, v) =>
            loop(async () => {
              await think(20, 80);
              const memeId = memeIds[Math.floor(Math.random() * memeIds.length)]!;
              const voteType: VoteType = Math.random() < 0.6 ? 'up' : 'down';
              const key = `${v}:${memeId}`;
              const pair = votes.get(key) ?? {
                memeId,
                voter: visitor,
                answered: null,
                maybe: [],
                pending: [],
                history: [],
              };
              votes.set(key, pair);
              const from = [pair.answered, ...pair.maybe];
              pair.pending = from.map((f) => voteTransition(f, voteType).next);
              possibleOutcomes(pair);
              const res = await site.send<{ myVote: VoteType | null }>(
                visitor,
                'POST',
                pathTo(memePaths.vote, { id: memeId }),
                {
                  body: { voteType },
                },
              );
              pair.pending = [];
              pair.history.push(
                `${site.phase.name}: ${voteType} -> ${res ? `${res.status} ${JSON.stringify(res.body)}` : 'no answer'} ip=${visitor.clientIp}`,
              );
              if (res && res.status === 200) {
                pair.answered = res.body.myVote;
                pair.maybe = [];
              } else if (!res || res.status >= 500) {
                // Refused or lost: it may have landed (a commit whose answer was cut).
                pair.maybe = [
                  ...new Set([...pair.maybe, ...from.map((f) => voteTransition(f, voteType).next)]),
                ];
              }
              possibleOutcomes(pair);
            }),
          ),
          // Page loads and reads: the gallery, the standings, who am I, an image.
          ...visitors.slice(0, 3).map((visitor) =>
            loop(async () => {
              await think(20, 80);
              await site.send(visitor, 'GET', memePaths.list);
              await site.send(visitor, 'GET', `${gamePaths.leaderboard}?limit=10`);
              await site.send(visitor, 'GET', authPaths.me);
              const meme = memes[Math.floor(Math.random() * memes.length)];
              if (meme) await site.send(visitor, 'GET', meme.imageUrl);
            }),
          ),
          ...members.map((m) =>
            (async () => {
              for (const character of paid) {
                for (;;) {
                  if (!running) return;
                  await think(150, 400);
                  const res = await site.send<{ profile: { coins: number } }>(
                    m.client,
                    'POST',
                    pathTo(shopPaths.purchase, { key: character.key }),
                  );
                  if (res?.status === 200) {
                    purchases.push({
                      userId: m.id,
                      key: character.key,
                      coins: res.body.profile.coins,
                    });
                    break;
                  }
                  // Owned already: an earlier attempt landed though its answer was lost.
                  if (res?.status === 409) break;
                }
              }
            })(),
          ),
          ...members.map((m) =>
            loop(async () => {
              const issued = await site.send<{ runId: string; seed: number }>(
                m.client,
                'POST',
                gamePaths.runs,
              );
              if (issued?.status !== 201) {
                await think(100, 300);
                return;
              }
              const issuedAt = Date.now();
              runsIssued.push(issued.body.runId);
              const run = playHonestly(issued.body.runId, issued.body.seed, 60);
              // The round reports its progress as it is played (decision 012); one lost to a
              // fault ends the round without a score, as it would for a player.
              const reported = await sendProgressReports(run, issuedAt, async (body) => {
                const res = await site.send(m.client, 'POST', progressPath(run.runId), {
                  body,
                });
                return res?.status ?? 0;
              }).then(
                () => true,
                () => false,
              );
              if (!reported) return;
              const scored = await scoreGate.through(() =>
                site.send<{ entry: { id: number; score: number } }>(
                  m.client,
                  'POST',
                  gamePaths.scores,
                  { body: scoreBody(run, 'x') },
                ),
              );
              if (scored?.status === 201)
                scores.push({
                  id: scored.body.entry.id,
                  runId: run.runId,
                  score: scored.body.entry.score,
                });
              if (run.result.coins > 0) {
                const credited = await site.send(m.client, 'POST', gamePaths.coins, {
                  body: { amount: run.result.coins, runId: run.runId },
                });
                if (credited?.status === 200)
                  credits.push({ runId: run.runId, coins: run.result.coins });
              }
            }),
          ),
          loop(async () => {
            await think(200, 400);
            const posted = await postMeme(
              site,
              members[1]!.client,
              `During the faults ${memes.length}`,
            );
            if (posted) memes.push(posted);
          }),
        ];

        /** Every 2xx the load has seen so far is in the stored data; every invariant holds. */
        const expectReflected = async (phase: string) => {
          const pairsBefore = new Set(votes.values());
          for (const pair of pairsBefore) pair.during = new Set(possibleOutcomes(pair));
          const stored = new Map(
            (
              await setup.db
                .selectFrom('meme_votes')
                .select(['meme_id', 'voter', 'vote_type'])
                .execute()
            ).map((v) => [`${v.voter}:${v.meme_id}`, v.vote_type]),
          );
          // A visitor's vote is keyed by the id in its signed cookie (memes/voter.ts).
          const secret = setup.nodeEnvs[0]!.SESSION_SECRET!;
          for (const pair of votes.values()) {
            const voter = visitorVoterOf(pair.voter, secret);
            if (!voter) continue;
            const now = stored.get(`${voter}:${pair.memeId}`) ?? null;
            // A pair first seen during the read had no vote stored when the read began.
            const before = pair.during ?? new Set<VoteType | null>([null]);
            expect(
              [...before, ...possibleOutcomes(pair)],
              `${phase}: vote on meme ${pair.memeId}: ${pair.history.join('; ')}`,
            ).toContain(now);
          }
          for (const pair of pairsBefore) pair.during = undefined;
          const debits = await setup.db
            .selectFrom('coin_ledger')
            .select(['user_id', 'character_key', 'balance_after', 'run_id', 'delta', 'reason'])
            .execute();
          for (const p of purchases) {
            const debit = debits.find(
              (d) => d.reason === 'purchase' && d.user_id === p.userId && d.character_key === p.key,
            );
            expect(debit?.balance_after, `${phase}: purchase ${p.userId}/${p.key}`).toBe(p.coins);
          }
          for (const c of credits) {
            expect(
              debits.find((d) => d.run_id === c.runId)?.delta,
              `${phase}: coins of run ${c.runId}`,
            ).toBe(c.coins);
          }
          const runIds = new Set(
            (await setup.db.selectFrom('game_runs').select('id').execute()).map((r) => r.id),
          );
          for (const id of runsIssued) expect(runIds.has(id), `${phase}: run ${id}`).toBe(true);
          const scoreRows = new Map(
            (
              await setup.db.selectFrom('game_scores').select(['id', 'run_id', 'score']).execute()
            ).map((s) => [s.id, s]),
          );
          for (const s of scores) {
            expect(scoreRows.get(s.id), `${phase}: score ${s.id}`).toEqual({
              id: s.id,
              run_id: s.runId,
              score: s.score,
            });
          }
          const memeRows = new Set(
            (await setup.db.selectFrom('memes').select('id').execute()).map((m) => m.id),
          );
          for (const m of memes) expect(memeRows.has(m.id), `${phase}: meme ${m.id}`).toBe(true);
          expect(
            await findInvariantViolations(setup.db, setup.store),
            `${phase}: invariants`,
          ).toEqual([]);
          // New scores wait meanwhile: the load scores about once a second, and the served
          // board may be a second behind the table, so the two never meet while it scores.
          await scoreGate.close();
          try {
            await expectLeaderboardRebuilt(site, setup.db, phase);
          } finally {
            scoreGate.open();
          }
        };

        for (const phase of setup.phases) {
          // Load runs a moment before each fault, so the fault lands on requests in flight.
          site.phase = newPhase(phase.name);
          site.recoveredAt = Infinity;
          phases.push(site.phase);
          await sleep(500);
          await phase.run(site, setup);
          // Recovered: from here, a moment's grace for requests already waiting, then no 5xx.
          site.recoveredAt = Date.now() + 1_000;
          await sleep(2_000);
          expect(site.phase.afterRecovery5xx, `${phase.name}: 5xx after recovery`).toBe(0);
          expect(site.phase.violations, phase.name).toEqual([]);
          expect(site.phase.ok, `${phase.name}: requests served`).toBeGreaterThan(0);
          await expectReflected(phase.name);
        }
        running = false;
        await Promise.all(load);

        // The load did what it set out to: every kind of write was answered at least once.
        expect(purchases.length).toBeGreaterThan(0);
        expect(scores.length).toBeGreaterThan(0);
        expect(memes.length).toBeGreaterThan(0);
        expect([...votes.values()].some((p) => p.answered !== null)).toBe(true);
        await expectReflected('at the end');
        // Images posted during the faults are served by every node.
        for (const m of memes) {
          for (const origin of site.origins) {
            expect(
              (await fetch(new URL(m.imageUrl, origin))).status,
              `${m.imageUrl} on ${origin}`,
            ).toBe(200);
          }
        }
        console.log(
          `faults on ${setup.name}:\n` +
            phases
              .map(
                (p) =>
                  `  ${p.name}: ${p.requests} requests, ${p.ok} 2xx, ${p.unavailable} 503, ` +
                  `${p.unanswered} lost mid-request, ${p.connectionRefused} refused by every node, 4xx ${JSON.stringify(p.refused4xx)}, slowest ${p.slowestMs} ms, ` +
                  `noticed in ${p.noticedMs ?? '-'} ms, recovered in ${p.recoveredMs ?? '-'} ms`,
              )
              .join('\n'),
        );
      },
      240_000,
    );
  }
});

/** Each node's leaderboard equals one rebuilt from the accepted runs (within its cache's second). */
/** Lets calls through while open; `close()` holds new ones and waits for those under way. */
class Gate {
  private opened: Promise<void> = Promise.resolve();
  private release = () => {};
  private underWay = new Set<Promise<unknown>>();

  async through<T>(call: () => Promise<T>): Promise<T> {
    await this.opened;
    const promise = call();
    this.underWay.add(promise);
    try {
      return await promise;
    } finally {
      this.underWay.delete(promise);
    }
  }

  async close(): Promise<void> {
    this.opened = new Promise((resolve) => (this.release = resolve));
    // A caller let through just before may start its call a tick later: wait for it too.
    await new Promise((resolve) => setImmediate(resolve));
    while (this.underWay.size > 0) await Promise.allSettled([...this.underWay]);
  }

  open(): void {
    this.release();
  }
}

/** The board each node serves equals one rebuilt from the stored entries (scores held still). */
async function expectLeaderboardRebuilt(site: Site, db: Kysely<Database>, phase: string) {
  const weekStart = weekStartUtc(Date.now());
  const rows = await db
    .selectFrom('game_scores')
    .select(['id', 'player_key', 'score', 'created_at'])
    .where('week_start', '=', weekStart)
    .execute();
  rows.sort((a, b) => b.score - a.score || a.created_at - b.created_at || a.id - b.id);
  const players = new Set<string>();
  const rebuilt = rows
    .filter((r) => !players.has(r.player_key) && players.add(r.player_key))
    .slice(0, 50);
  for (const origin of site.origins) {
    let served: number[] = [];
    for (let i = 0; i < 40; i++) {
      const res = await fetch(new URL(`${gamePaths.leaderboard}?limit=50`, origin));
      served = ((await res.json()) as { id: number }[]).map((e) => e.id);
      if (served.join() === rebuilt.map((r) => r.id).join()) break;
      await sleep(100);
    }
    expect(served, `${phase}: leaderboard on ${origin}`).toEqual(rebuilt.map((r) => r.id));
  }
}

/** A member's whole upload flow; the meme, or null when any step was refused or lost. */
async function postMeme(site: Site, client: TestClient, title: string) {
  const target = await site.send<{ uploadURL: string }>(client, 'POST', memePaths.uploadTarget);
  if (target?.status !== 200) return null;
  // A picture of its own: plain colours all look alike to the duplicate check.
  const png = await distinctPng(48, 32);
  const uploadURL = target.body.uploadURL;
  if (uploadURL.startsWith('/')) {
    const put = await site.send(client, 'PUT', uploadURL, {
      body: new Uint8Array(png),
      headers: { 'content-type': 'image/png' },
      csrf: false,
    });
    if (put?.status !== 200) return null;
  } else {
    // Straight to the bucket (through its fault proxy), as the browser would.
    const put = await fetch(uploadURL, {
      method: 'PUT',
      body: new Uint8Array(png),
      headers: { 'content-type': 'image/png' },
      signal: AbortSignal.timeout(STATED_TIMEOUT_MS),
    }).catch(() => null);
    if (put?.status !== 200) return null;
  }
  const processed = await site.send<{ objectPath: string }>(client, 'PUT', memePaths.memeImages, {
    body: { imageUrl: uploadURL },
  });
  if (processed?.status !== 200) return null;
  const created = await site.send<{ meme: { id: number; imageUrl: string } }>(
    client,
    'POST',
    memePaths.create,
    {
      body: { title, category: 'office-life', imageUrl: processed.body.objectPath },
    },
  );
  if (created?.status !== 201) return null;
  return { id: created.body.meme.id, imageUrl: created.body.meme.imageUrl };
}
