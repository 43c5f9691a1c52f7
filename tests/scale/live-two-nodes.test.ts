// The live event stream across two server processes on one PostgreSQL: what happens on node A
// reaches a stream held by node B, over LISTEN/NOTIFY and, with REDIS_URL, over Redis pub/sub.
import { randomBytes } from 'node:crypto';
import sharp from 'sharp';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { consolePaths } from '#shared/api/console/common.ts';
import type { LeaderboardEntry, SubmitScoreResponse } from '#shared/api/game.ts';
import { LIVE_EVENTS_PATH } from '#shared/api/live.ts';
import type { Meme } from '#shared/api/memes.ts';
import { gamePaths, memePaths, pathTo } from '#shared/api/paths.ts';
import { runAdminCli } from '#test-support/admin-cli.ts';
import { EventStreamReader, type StreamEvent } from '#test-support/event-stream.ts';
import { scoreBody } from '#test-support/honest-run.ts';
import { startNode, type NodeProcess } from '#test-support/node-process.ts';
import { addPasskey, PASSWORD } from '#test-support/operators.ts';
import { playReportedRun, type ReportedRun } from '#test-support/reported-run.ts';
import { SoftAuthenticator } from '#test-support/soft-authenticator.ts';
import type { TestClient } from '#test-support/test-client.ts';
import {
  clientIp,
  describeOnTwoNodes,
  newBrowser,
  PUBLIC_ORIGIN,
} from '#test-support/two-node-site.ts';

/** The promise: a change on any node is on every page within two seconds. */
const WITHIN_MS = 2_000;

const tag = randomBytes(3).toString('hex');
let counter = 0;
const name = (prefix: string) => `${prefix}_${tag}_${++counter}`;
const is =
  (type: string, fields: Record<string, unknown> = {}) =>
  (event: StreamEvent) =>
    event.type === type &&
    Object.entries(fields).every(([k, v]) => (event.data as Record<string, unknown>)[k] === v);

describeOnTwoNodes(
  'live events between two nodes over $shared',
  {
    postgres: 'PostgreSQL LISTEN/NOTIFY',
    redis: 'Redis pub/sub',
    dataDirPrefix: 'grind-live-node-',
  },
  (site) => {
    let member: TestClient;
    let played: ReportedRun;
    let meme: Meme;
    let scoredEntryId: number;
    const readers: EventStreamReader[] = [];
    const listen = async (node: NodeProcess, headers: Record<string, string> = {}) => {
      const reader = await EventStreamReader.open(`${node.origin}${LIVE_EVENTS_PATH}`, {
        'x-forwarded-for': clientIp(),
        ...headers,
      });
      expect(reader.response.status).toBe(200);
      readers.push(reader);
      return reader;
    };
    const voteOn = async (node: NodeProcess, memeId: number) => {
      const voter = newBrowser();
      const res = await voter.request('POST', pathTo(memePaths.vote, { id: memeId }), {
        node: node.origin,
        body: { voteType: 'up' },
      });
      expect(res.statusCode, res.body).toBe(200);
      const { upvotes, downvotes } = res.json<{ upvotes: number; downvotes: number }>();
      return { id: memeId, upvotes, downvotes };
    };

    beforeAll(async () => {
      member = newBrowser();
      await member.register(name('live'), 'password123', { node: site.a.origin });
      // A short round, played in real time while the first tests run.
      played = await playReportedRun(member, { node: site.a.origin, targetSteps: 240 });
      played.reporting.catch(() => {});
    }, 120_000);

    afterAll(() => {
      for (const reader of readers) reader.close();
    });

    it('a new meme posted on A, then votes on it, reach a stream on B', async () => {
      const onB = await listen(site.b);
      const target = await member.request('POST', memePaths.uploadTarget, { node: site.a.origin });
      const { uploadURL } = target.json<{ uploadURL: string }>();
      const png = await sharp({
        create: { width: 64, height: 48, channels: 3, background: { r: 20, g: 180, b: 250 } },
      })
        .png()
        .toBuffer();
      await fetch(uploadURL, {
        method: 'PUT',
        body: new Uint8Array(png),
        headers: { 'content-type': 'image/png' },
      });
      const processed = await member.request('PUT', memePaths.memeImages, {
        node: site.a.origin,
        body: { imageUrl: uploadURL },
      });
      const { objectPath } = processed.json<{ objectPath: string }>();
      const created = await member.request('POST', memePaths.create, {
        node: site.a.origin,
        body: { title: 'Live on both nodes', category: 'office-life', imageUrl: objectPath },
      });
      expect(created.statusCode, created.body).toBe(201);
      meme = created.json<{ meme: Meme }>().meme;
      const postedAt = Date.now();
      await onB.next(is('meme', { id: meme.id, change: 'added' }), WITHIN_MS);
      expect(Date.now() - postedAt).toBeLessThan(WITHIN_MS);

      const counts = await voteOn(site.a, meme.id);
      const votedAt = Date.now();
      const event = await onB.next(is('vote', { id: meme.id }), WITHIN_MS);
      expect(Date.now() - votedAt).toBeLessThan(WITHIN_MS);
      expect(event.data).toEqual(counts);
    });

    it("a score on A changes the board on B's streams", async () => {
      const onB = await listen(site.b);
      await played.reporting;
      const wait = played.playableAt - Date.now();
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
      const scored = await member.request('POST', gamePaths.scores, {
        node: site.a.origin,
        body: scoreBody(played.run, 'ignored'),
      });
      expect(scored.statusCode, scored.body).toBe(201);
      scoredEntryId = scored.json<SubmitScoreResponse>().entry.id;
      const scoredAt = Date.now();
      await onB.next(is('leaderboard'), WITHIN_MS);
      expect(Date.now() - scoredAt).toBeLessThan(WITHIN_MS);
    }, 30_000);

    it('a resumed stream on the other node loses nothing, and SIGTERM ends streams', async () => {
      const onB = await listen(site.b);
      await voteOn(site.a, meme.id);
      await onB.next(is('vote', { id: meme.id }), WITHIN_MS);
      const seen = onB.lastId!;
      // B is stopped as a deploy stops it: its streams end at once, and the clients come back to A.
      const stopping = site.b.stop();
      expect(await onB.waitForEnd(5_000)).toBe(true);
      expect(await stopping).toBe(0);
      const missed = [await voteOn(site.a, meme.id)];
      const resumed = await listen(site.a, { 'last-event-id': String(seen) });
      await resumed.next(is('vote', { id: meme.id, upvotes: missed[0]!.upvotes }), WITHIN_MS);
      expect(resumed.events.map((e) => e.data)).toEqual(missed);
      site.b = await startNode({ env: site.env() });
    }, 60_000);

    it('a meme hidden by reports on A leaves the pages served by B', async () => {
      const onB = await listen(site.b);
      for (let i = 0; i < 3; i++) {
        const reporter = newBrowser();
        const res = await reporter.request('POST', pathTo(memePaths.report, { id: meme.id }), {
          node: site.a.origin,
          body: { reason: 'spam' },
        });
        expect(res.statusCode, res.body).toBe(200);
      }
      const hiddenAt = Date.now();
      await onB.next(is('meme', { id: meme.id, change: 'hidden' }), WITHIN_MS);
      expect(Date.now() - hiddenAt).toBeLessThan(WITHIN_MS);
    });

    it('a meme unhidden by the CLI, and a run disqualified in the console on A, reach B', async () => {
      const onB = await listen(site.b);
      // The CLI is a process of its own: its publisher reaches the nodes over the site's bus.
      const unhidden = await runAdminCli(
        site.env(),
        'memes:unhide',
        String(meme.id),
        '--reason',
        'ok',
      );
      expect(unhidden.code, unhidden.stderr).toBe(0);
      await onB.next(is('meme', { id: meme.id, change: 'unhidden' }), WITHIN_MS);

      const adminName = name('admin');
      const admin = newBrowser();
      await admin.register(adminName, PASSWORD, { node: site.a.origin });
      const role = await runAdminCli(site.env(), 'users:role', adminName, 'admin');
      expect(role.code, role.stderr).toBe(0);
      // The role change ended the session registration opened.
      expect((await admin.login(adminName, PASSWORD, { node: site.a.origin })).statusCode).toBe(
        200,
      );
      await addPasskey(admin, new SoftAuthenticator(PUBLIC_ORIGIN), site.a.origin);
      const boardOnB = async () =>
        (await member.request('GET', `${gamePaths.leaderboard}?limit=50`, { node: site.b.origin }))
          .json<LeaderboardEntry[]>()
          .map((e) => e.id);
      // B holds the board with the run in its cache when A takes the run off it.
      expect(await boardOnB()).toContain(scoredEntryId);
      const from = onB.events.length;
      const res = await admin.request(
        'POST',
        consolePaths.disqualify.replace(':runId', played.run.runId),
        { node: site.a.origin, body: { reason: 'disqualified in a test' } },
      );
      expect(res.statusCode, res.body).toBe(200);
      await onB.next(is('leaderboard'), WITHIN_MS, from);
      expect(await boardOnB()).not.toContain(scoredEntryId);
    }, 60_000);
  },
);
