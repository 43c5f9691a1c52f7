import net from 'node:net';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LIVE_EVENTS_PATH, LIVE_HEARTBEAT_MS, LIVE_RETRY_MS } from '#shared/api/live.ts';
import { memePaths, pathTo } from '#shared/api/paths.ts';
import { loadConfig } from '#server/config.ts';
import { LiveHub } from '#server/live/hub.ts';
import { inProcessTransport, LISTENER_NAME } from '#server/live/transport.ts';
import { cliOperator } from '#server/db/operator-log.ts';
import { decide } from '#server/memes/moderation.ts';
import { WIDE_NETWORK_SHARE } from '#server/http/client-network.ts';
import { EventStreamReader } from '#test-support/event-stream.ts';
import { postMeme, seedMemes } from '#test-support/gallery.ts';
import { createTestApp, TestClock, uniqueName, type TestApp } from '#test-support/test-app.ts';
import { TestClient } from '#test-support/test-client.ts';
import { databaseKinds } from '#test-support/test-database.ts';

let voterCount = 0;
/** A visitor of their own network (visitor votes are capped per network and meme). */
const voterOf = (t: TestApp) =>
  TestClient.inject(t.app, `10.9.${++voterCount >> 8}.${voterCount & 255}`);

async function vote(t: TestApp, memeId: number, voteType: 'up' | 'down' = 'up') {
  const res = await voterOf(t).request('POST', pathTo(memePaths.vote, { id: memeId }), {
    body: { voteType },
  });
  expect(res.statusCode).toBe(200);
  const { upvotes, downvotes } = res.json<{ upvotes: number; downvotes: number }>();
  return { upvotes, downvotes };
}

describe.each(databaseKinds)('GET /api/events on %s', (kind) => {
  let t: TestApp;
  let origin: string;
  let memberId: number;
  let member: TestClient;
  let memes: number[];
  const open: EventStreamReader[] = [];
  const stream = async (headers: Record<string, string> = {}, query = '') => {
    const reader = await EventStreamReader.open(`${origin}${LIVE_EVENTS_PATH}${query}`, headers);
    open.push(reader);
    return reader;
  };

  beforeAll(async () => {
    t = await createTestApp(kind);
    origin = await t.listen();
    member = TestClient.inject(t.app);
    memberId = (await member.register(uniqueName('live'))).id;
    memes = await seedMemes(t.app, 12, { userId: memberId });
  });
  afterAll(async () => {
    for (const reader of open) reader.close();
    await t.close();
  });

  it('is an event stream a proxy does not buffer, with a retry hint and nothing private', async () => {
    const reader = await stream();
    expect(reader.response.status).toBe(200);
    expect(reader.response.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    expect(reader.response.headers.get('x-accel-buffering')).toBe('no');
    expect(reader.response.headers.get('cache-control')).toBe('no-cache, no-transform');
    expect(reader.response.headers.get('set-cookie')).toBeNull();
    const counts = await vote(t, memes[0]!);
    const event = await reader.next((e) => e.type === 'vote');
    expect(reader.retry).toBe(LIVE_RETRY_MS);
    expect(event.data).toEqual({ id: memes[0], ...counts });
    expect(event.id).toBeGreaterThan(0);
    reader.close();
  });

  it('announces a new meme, a hidden one and a deleted one', async () => {
    const reader = await stream();
    const by = { operator: cliOperator(), reason: 'live events test' };
    const poster = TestClient.inject(t.app, '10.8.0.1');
    await poster.register(uniqueName('poster'));
    const posted = await postMeme(t.app, poster);
    await reader.next((e) => e.type === 'meme' && (e.data as { id: number }).id === posted.id);
    expect(reader.events.at(-1)!.data).toEqual({ id: posted.id, change: 'added' });
    await decide(t.app.deps.db, posted.id, 'hide', t.clock.now(), by);
    await reader.next(
      (e) => e.type === 'meme' && (e.data as { change: string }).change === 'hidden',
    );
    await decide(t.app.deps.db, posted.id, 'delete', t.clock.now(), by);
    await reader.next(
      (e) => e.type === 'meme' && (e.data as { change: string }).change === 'deleted',
    );
    const ids = reader.events.map((e) => e.id!);
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
    reader.close();
  });

  it('coalesces a burst of votes on one meme to a few events, the last with the final counts', async () => {
    const reader = await stream();
    let last = { upvotes: 0, downvotes: 0 };
    for (let i = 0; i < 12; i++) last = await vote(t, memes[1]!);
    const final = await reader.next(
      (e) => e.type === 'vote' && (e.data as { upvotes: number }).upvotes === last.upvotes,
    );
    expect(final.data).toEqual({ id: memes[1], ...last });
    const sent = reader.events.filter((e) => e.type === 'vote');
    expect(sent.length).toBeLessThan(12);
    reader.close();
  });

  it('replays what a resumed stream missed, and tells a client from too far back to refetch', async () => {
    const first = await stream();
    await vote(t, memes[2]!);
    await first.next((e) => e.type === 'vote' && (e.data as { id: number }).id === memes[2]);
    const lastSeen = first.lastId!;
    first.close();
    // Three memes, so no coalescing window holds any of them back.
    const watcher = await stream();
    const missed = [];
    for (const id of [memes[3]!, memes[4]!, memes[5]!]) missed.push({ id, ...(await vote(t, id)) });
    await watcher.next((e) => e.type === 'vote' && (e.data as { id: number }).id === memes[5]);

    const resumed = await stream({ 'last-event-id': String(lastSeen) });
    await resumed.next((e) => e.type === 'vote' && (e.data as { id: number }).id === memes[5]);
    expect(resumed.events.map((e) => e.data)).toEqual(missed);
    expect(resumed.events.every((e) => e.id! > lastSeen)).toBe(true);

    const byQuery = await stream({}, `?lastEventId=${lastSeen}`);
    await byQuery.next((e) => e.type === 'vote' && (e.data as { id: number }).id === memes[5]);
    expect(byQuery.events.map((e) => e.data)).toEqual(missed);

    // Five minutes on, what it missed is no longer kept.
    t.clock.advance(t.app.deps.live.limits.backlogMs + 1000);
    const tooOld = await stream({ 'last-event-id': String(lastSeen) });
    const told = await tooOld.next(() => true);
    expect(told).toMatchObject({ type: 'refetch', data: { reason: 'too-far-behind' } });
    for (const r of [watcher, resumed, byQuery, tooOld]) r.close();
  });

  it.runIf(kind === 'postgres')(
    'a node whose listener connection is cut reconnects, tells its streams to refetch and stays ready',
    async () => {
      const reader = await stream();
      const admin = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
      await admin.connect();
      const database = t.config.database.kind === 'postgres' ? t.config.database.url : '';
      const { rowCount } = await admin.query(
        'select pg_terminate_backend(pid) from pg_stat_activity where datname = $1 and application_name = $2',
        [new URL(database).pathname.slice(1), LISTENER_NAME],
      );
      await admin.end();
      expect(rowCount).toBe(1);
      const told = await reader.next((e) => e.type === 'refetch', 5_000);
      expect(told.data).toEqual({ reason: 'listener-reconnected' });
      expect((await t.app.inject({ method: 'GET', url: '/readyz' })).statusCode).toBe(200);
      const counts = await vote(t, memes[6]!);
      const after = await reader.next(
        (e) => e.type === 'vote' && (e.data as { id: number }).id === memes[6],
      );
      expect(after.data).toEqual({ id: memes[6], ...counts });
      reader.close();
    },
  );

  it('answers 429 past the streams one network may hold, and frees the place when one closes', async () => {
    const limit = t.app.deps.live.limits.streamsPerNetwork;
    for (const reader of open) reader.close();
    await expect.poll(() => t.app.deps.live.streamCount, { timeout: 2000 }).toBe(0);
    const held = [];
    for (let i = 0; i < limit; i++) held.push(await stream());
    expect(held.every((r) => r.response.status === 200)).toBe(true);
    const refused = await fetch(`${origin}${LIVE_EVENTS_PATH}`);
    expect(refused.status).toBe(429);
    expect(await refused.json()).toMatchObject({ code: 'TOO_MANY_STREAMS' });
    held[0]!.close();
    await expect.poll(() => t.app.deps.live.streamCount, { timeout: 2000 }).toBe(limit - 1);
    const again = await stream();
    expect(again.response.status).toBe(200);
    for (const r of [...held, again]) r.close();
  });

  it('resumes after a burst of 1,100 events: all of them, in the order sent live, then live ones', async () => {
    const burns = (i: number) => ({ signature: `${String(i).padStart(4, '0')}${'s'.repeat(84)}` });
    // The streams the test before closed give their places back first (one network here).
    await expect.poll(() => t.app.deps.live.streamCount, { timeout: 2000 }).toBe(0);
    const watcher = await stream();
    expect(watcher.response.status).toBe(200);
    t.app.deps.live.publish({ type: 'burns', data: burns(-1) });
    const before = (await watcher.next((e) => e.type === 'burns')).id!;
    const BURST = 1_100;
    // Published in slices with a pause between, so the watcher (in this process) keeps up.
    for (let i = 0; i < BURST; i++) {
      t.app.deps.live.publish({ type: 'burns', data: burns(i) });
      if (i % 25 === 24) await new Promise((resolve) => setTimeout(resolve, 2));
    }
    expect(await watcher.until(() => watcher.events.length === BURST + 1, 10_000)).toBe(true);
    watcher.close();

    // About 150 KB of backlog, more than twice what a reader may leave unread (64 KB).
    const resumed = await stream({ 'last-event-id': String(before) });
    expect(await resumed.until(() => resumed.events.length === BURST, 10_000)).toBe(true);
    // Every one, once, as the watcher saw them live (PostgreSQL may number a burst's
    // notifications out of the order they were sent in; the stream keeps the bus's order).
    const seenLive = watcher.events.filter((e) => e.id !== before);
    expect(resumed.events).toEqual(seenLive);
    expect(new Set(resumed.events.map((e) => JSON.stringify(e.data))).size).toBe(BURST);
    expect(t.app.deps.live.stats.dropped).toBe(0);
    t.app.deps.live.publish({ type: 'burns', data: burns(BURST) });
    const last = burns(BURST).signature;
    await resumed.next((e) => (e.data as { signature: string }).signature === last);
    expect(resumed.ended).toBe(false);
    resumed.close();
  }, 30_000);
});

describe.each(databaseKinds)('streams per network behind a proxy on %s', (kind) => {
  let t: TestApp;
  let origin: string;
  const open: EventStreamReader[] = [];
  const streamFrom = async (address: string) => {
    const reader = await EventStreamReader.open(`${origin}${LIVE_EVENTS_PATH}`, {
      'x-forwarded-for': address,
    });
    open.push(reader);
    return reader;
  };
  beforeAll(async () => {
    t = await createTestApp(kind, { trustProxy: 1 });
    origin = await t.listen();
  });
  afterAll(async () => {
    for (const reader of open) reader.close();
    await t.close();
  });

  it('holds at most 16 per /64 and 64 per /48, so one /48 takes a small share of the node', async () => {
    const { streamsPerNetwork, streamsPerNode } = t.app.deps.live.limits;
    const perSlash48 = streamsPerNetwork * WIDE_NETWORK_SHARE;
    expect(perSlash48 / streamsPerNode).toBeLessThanOrEqual(0.01);
    // A /64 alone: its own limit.
    for (let i = 0; i < streamsPerNetwork; i++) {
      expect((await streamFrom(`2001:db8:5100:1::${i + 1}`)).response.status).toBe(200);
    }
    const refused = await streamFrom('2001:db8:5100:1::ff');
    expect(refused.response.status).toBe(429);
    expect(await refused.response.json()).toMatchObject({ code: 'TOO_MANY_STREAMS' });

    // The /64s of one /48, each under its own limit: the /48's limit.
    const wide: EventStreamReader[] = [];
    for (let i = 0; i <= perSlash48; i++) {
      wide.push(await streamFrom(`2001:db8:5200:${(i % 40) + 1}::${i + 1}`));
    }
    const statuses = wide.map((r) => r.response.status);
    expect(statuses.slice(0, perSlash48).every((s) => s === 200)).toBe(true);
    expect(statuses.at(-1)).toBe(429);
    // Strangers on IPv6 and IPv4 still get theirs.
    expect((await streamFrom('2001:db8:5300:1::1')).response.status).toBe(200);
    expect((await streamFrom('203.0.113.51')).response.status).toBe(200);
    // A stream of the /48 that closes gives its place back.
    const held = t.app.deps.live.streamCount;
    wide[0]!.close();
    await expect.poll(() => t.app.deps.live.streamCount, { timeout: 2000 }).toBe(held - 1);
    expect((await streamFrom('2001:db8:5200:99::1')).response.status).toBe(200);
  });
});

describe('a slow reader', () => {
  let t: TestApp;
  let port: number;
  beforeAll(async () => {
    t = await createTestApp('sqlite');
    port = Number(new URL(await t.listen()).port);
  });
  afterAll(async () => t.close());

  it('is dropped once its unread events pass the bound, and the others keep theirs', async () => {
    const stalled = net.connect(port, '127.0.0.1');
    await new Promise((resolve) => stalled.once('connect', resolve));
    stalled.write(`GET ${LIVE_EVENTS_PATH} HTTP/1.1\r\nHost: x\r\n\r\n`);
    // Read the answer's head, then stop reading: the socket's buffers fill, then the node's.
    await new Promise((resolve) => stalled.once('data', resolve));
    stalled.pause();
    const closed = new Promise((resolve) => stalled.once('close', resolve));
    const reader = await EventStreamReader.open(`http://127.0.0.1:${port}${LIVE_EVENTS_PATH}`);
    await expect.poll(() => t.app.deps.live.streamCount).toBe(2);
    // A few events a millisecond: the reading stream (in this same process) keeps up.
    const signature = 'x'.repeat(2000);
    for (let i = 0; i < 20_000 && t.app.deps.live.stats.dropped === 0; i++) {
      t.app.deps.live.publish({ type: 'burns', data: { signature: `${i}${signature}` } });
      if (i % 4 === 0) await new Promise((resolve) => setTimeout(resolve, 1));
    }
    expect(t.app.deps.live.stats.dropped).toBe(1);
    // Reading again, the stalled client finds its connection closed after what was sent.
    stalled.on('error', () => {});
    stalled.resume();
    await closed;
    expect(t.app.deps.live.streamCount).toBe(1);
    await reader.next((e) => e.type === 'burns');
    reader.close();
    stalled.destroy();
  }, 60_000);
});

describe('a resume whose reader does not read', () => {
  const quiet = { warn: () => {}, info: () => {} };
  const settle = () => new Promise((resolve) => setImmediate(resolve));

  it('is written no further than its reader takes, then told to refetch once its place is gone', async () => {
    const clock = new TestClock();
    const hub = new LiveHub(inProcessTransport(clock), clock, quiet, { backlogEvents: 400 });
    const ids: number[] = [];
    hub.onEvent((event) => ids.push(event.id));
    // 300 events of about 560 bytes: 170 KB kept.
    const burn = (i: number) => ({ signature: `${i}`.padEnd(500, 'x') });
    for (let i = 0; i < 300; i++) hub.publish({ type: 'burns', data: burn(i) });
    await settle();
    const { limits } = hub;

    const opened = hub.open('203.0.113.60', ids[0]! - 1);
    if (!opened.ok) throw new Error(opened.reason);
    const out = opened.stream;
    const held = () => out.readableLength + out.writableLength;
    expect(held()).toBeGreaterThan(limits.maxBufferedBytes / 4);
    expect(held()).toBeLessThanOrEqual(limits.maxBufferedBytes);
    // Read now, it gets every one of them, then a live one.
    const text: string[] = [];
    out.on('data', (chunk: Buffer) => text.push(chunk.toString()));
    await settle();
    hub.publish({ type: 'burns', data: burn(300) });
    await settle();
    const sent = text
      .join('')
      .match(/"signature":"\d+/g)!
      .map((m) => Number(m.slice(13)));
    expect(sent).toEqual(Array.from({ length: 301 }, (_, i) => i));
    expect(hub.stats.dropped).toBe(0);

    // Another resumes and reads nothing while 170 more arrive: its place leaves the backlog
    // (400 events), so it is told to refetch and then given live events, never past the bound.
    const slow = hub.open('203.0.113.61', ids[0]! - 1);
    if (!slow.ok) throw new Error(slow.reason);
    for (let i = 301; i <= 470; i++) {
      hub.publish({ type: 'burns', data: burn(i) });
      await settle();
      expect(slow.stream.readableLength + slow.stream.writableLength).toBeLessThanOrEqual(
        limits.maxBufferedBytes,
      );
    }
    expect(hub.stats.dropped).toBe(0);
    const got: string[] = [];
    slow.stream.on('data', (chunk: Buffer) => got.push(chunk.toString()));
    await settle();
    const [replayed, live] = got
      .join('')
      .split('event: refetch\ndata: {"reason":"too-far-behind"}');
    const numbers = (text: string) =>
      (text.match(/"signature":"\d+/g) ?? []).map((m) => Number(m.slice(13)));
    const early = numbers(replayed!);
    expect(early).toEqual(Array.from({ length: early.length }, (_, i) => i));
    expect(early.length).toBeGreaterThan(0);
    expect(numbers(live!).length).toBeGreaterThan(0);
    expect(numbers(live!).every((n) => n > 400)).toBe(true);
    await hub.close();
  });
});

describe('the heartbeat', () => {
  // The app's own setting (LIVE_HEARTBEAT_MS), shortened so a test sees several beats.
  const HEARTBEAT_MS = 150;
  const BEATS = 4;
  let t: TestApp;
  let origin: string;
  beforeAll(async () => {
    t = await createTestApp('sqlite', { live: { heartbeatMs: HEARTBEAT_MS } });
    origin = await t.listen();
  });
  afterAll(async () => t.close());

  it('is 15 s unless configured, and never longer', () => {
    expect(loadConfig({}).live.heartbeatMs).toBe(LIVE_HEARTBEAT_MS);
    expect(LIVE_HEARTBEAT_MS).toBeLessThanOrEqual(15_000);
    expect(() => loadConfig({ LIVE_HEARTBEAT_MS: '20000' })).toThrow(/LIVE_HEARTBEAT_MS/);
  });

  it('sends an idle stream the retry hint first, then a comment at the configured interval', async () => {
    const openedAt = Date.now();
    const reader = await EventStreamReader.open(`${origin}${LIVE_EVENTS_PATH}`);
    const beats = () => reader.comments.filter((c) => c.text === '');
    // The default (15 s) would not get there in this time: the configured interval is used.
    expect(await reader.until(() => beats().length >= BEATS, 20 * HEARTBEAT_MS)).toBe(true);
    const elapsed = Date.now() - openedAt;
    reader.close();
    expect(reader.firstLine).toBe(`retry: ${LIVE_RETRY_MS}`);
    expect(reader.retry).toBe(LIVE_RETRY_MS);
    expect(reader.events).toEqual([]);
    // Timers do not fire early: in `elapsed` ms at most one beat per interval (and one at once)
    // can have been sent, so the beats are spaced by the interval, not sent in a burst (20 ms
    // for the event loop's clock being read late).
    expect(beats().length).toBeLessThanOrEqual(Math.floor((elapsed + 20) / HEARTBEAT_MS) + 1);
  });
});
