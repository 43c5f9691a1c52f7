// `npm run bench:live`: the live event stream against a polling baseline, in one run, on two
// nodes sharing one PostgreSQL (docs/decisions/021). Prints one table.
//   --streams=5000   idle streams held on node B
//   --fanout=1000    streams that each vote must reach
//   --votes=20       votes timed
//   --bus=postgres|redis
import fs from 'node:fs';
import http from 'node:http';
import { parseArgs } from 'node:util';
import { LIVE_EVENTS_PATH } from '#shared/api/live.ts';
import { gamePaths, memePaths, pathTo } from '#shared/api/paths.ts';
import { createDatabase } from '#server/db/create-database.ts';
import { insertMeme } from '#server/memes/repository.ts';
import { startNode, type NodeProcess } from '#test-support/node-process.ts';
import { startScratchSite } from '#test-support/scratch-site.ts';
import { sleep } from '#test-support/sleep.ts';
import { TestClient } from '#test-support/test-client.ts';

const { values } = parseArgs({
  options: {
    streams: { type: 'string', default: '5000' },
    fanout: { type: 'string', default: '1000' },
    votes: { type: 'string', default: '20' },
    bus: { type: 'string', default: 'postgres' },
    'poll-seconds': { type: 'string', default: '20' },
  },
});
const STREAMS = Number(values.streams);
const FANOUT = Number(values.fanout);
const VOTES = Number(values.votes);
const POLL_SECONDS = Number(values['poll-seconds']);
const adminUrl = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const redisUrl = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const ORIGIN = 'http://grind.example';

let addressCounter = 0;
const nextAddress = () => {
  addressCounter += 1;
  return `10.${(addressCounter >> 16) & 255}.${(addressCounter >> 8) & 255}.${addressCounter & 255}`;
};

/** Resident memory and CPU time (ms) of a node's process, from /proc. */
function usage(node: NodeProcess): { rssBytes: number; cpuMs: number } {
  const pid = node.child.pid!;
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  const rssKb = Number(/VmRSS:\s+(\d+)/.exec(status)![1]);
  const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  const ticks = Number(stat[11]) + Number(stat[12]);
  return { rssBytes: rssKb * 1024, cpuMs: (ticks * 1000) / 100 };
}

interface Stream {
  request: http.ClientRequest;
  /** When each vote (by meme id and upvotes) reached this stream. */
  onEvent?: (type: string, data: string, id: string) => void;
  lastId?: string;
}

/** A lean SSE client (node:http, one socket each): what thousands of browsers would hold. */
function openStream(
  node: NodeProcess,
  lastEventId?: string,
  onEvent?: Stream['onEvent'],
): Promise<Stream> {
  return new Promise((resolve, reject) => {
    // The handler is set before the answer comes: a replay arrives with the head.
    const stream = { onEvent } as Stream;
    const request = http.get(
      `${node.origin}${LIVE_EVENTS_PATH}`,
      {
        agent: false,
        headers: {
          'x-forwarded-for': nextAddress(),
          ...(lastEventId && { 'last-event-id': lastEventId }),
        },
      },
      (res) => {
        if (res.statusCode !== 200) return reject(new Error(`stream: ${res.statusCode}`));
        res.setEncoding('utf8');
        let buffer = '';
        res.on('data', (chunk: string) => {
          buffer += chunk;
          let end: number;
          while ((end = buffer.indexOf('\n\n')) !== -1) {
            const block = buffer.slice(0, end);
            buffer = buffer.slice(end + 2);
            const type = /^event: (.*)$/m.exec(block)?.[1];
            const data = /^data: (.*)$/m.exec(block)?.[1];
            const id = /^id: (.*)$/m.exec(block)?.[1];
            if (id) stream.lastId = id;
            if (type && data) stream.onEvent?.(type, data, id ?? '');
          }
        });
        res.on('error', () => {});
        resolve(stream);
      },
    );
    request.on('error', reject);
    stream.request = request;
  });
}

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;

async function main() {
  const site = await startScratchSite({
    postgresAdminUrl: adminUrl,
    publicOrigin: ORIGIN,
    dataDirPrefix: 'grind-bench-live-',
  });
  const env = () =>
    site.nodeEnv({ REDIS_URL: values.bus === 'redis' ? redisUrl : undefined, LOG_LEVEL: 'error' });
  const a = await startNode({ env: env(), keepOutput: 0 });
  const b = await startNode({ env: env(), keepOutput: 0 });
  const rows: [string, string, string][] = [];
  try {
    const member = TestClient.http(ORIGIN, { clientIp: nextAddress() });
    const memberId = (
      await member.register(`bench_${Date.now() % 1e8}`, 'password123', { node: a.origin })
    ).id;
    const db = createDatabase({ kind: 'postgres', url: site.database!.migrationUrl });
    const memeIds: number[] = [];
    for (let i = 0; i < VOTES + 10; i++) {
      const hex = (n: number) => n.toString(16).padStart(64, '0');
      const row = await insertMeme(db, {
        userId: memberId,
        title: `Bench meme ${i}`,
        category: 'office-life',
        imageKey: `memes/${hex(i + 1)}.jpg`,
        thumbnailKey: `memes/${hex(i + 1)}-thumb.webp`,
        thumbnailWidth: 400,
        thumbnailHeight: 300,
        now: Date.now(),
      });
      memeIds.push(row.id);
    }
    await db.destroy();
    /** A visitor with its CSRF token already fetched, so a timed vote is one request. */
    const readyVoter = async () => {
      const voter = TestClient.http(ORIGIN, { clientIp: nextAddress() });
      await voter.token(a.origin);
      return voter;
    };
    const vote = async (memeId: number, voter?: TestClient) => {
      voter ??= await readyVoter();
      const res = await voter.request('POST', pathTo(memePaths.vote, { id: memeId }), {
        node: a.origin,
        body: { voteType: 'up' },
      });
      if (res.statusCode !== 200) throw new Error(`vote: ${res.statusCode} ${res.body}`);
    };

    // 1. Idle streams held on B, and what each costs.
    await sleep(1000);
    const before = usage(b);
    const streams: Stream[] = [];
    for (let i = 0; i < STREAMS; i += 200) {
      const batch = await Promise.all(
        Array.from({ length: Math.min(200, STREAMS - i) }, () => openStream(b)),
      );
      streams.push(...batch);
    }
    await sleep(3000);
    const held = usage(b);
    const perStream = (held.rssBytes - before.rssBytes) / STREAMS;
    rows.push(['idle streams held on node B', `${streams.length}`, 'goal 5,000']);
    rows.push([
      'memory per idle stream (RSS)',
      `${(perStream / 1024).toFixed(1)} KB`,
      `node RSS ${(held.rssBytes / 2 ** 20).toFixed(0)} MB`,
    ]);

    // 2. A vote on A reaching FANOUT streams on B.
    for (const s of streams.slice(FANOUT)) s.request.destroy();
    const fan = streams.slice(0, FANOUT);
    // Let B finish closing the others, and warm both nodes' vote path (not timed).
    await sleep(3000);
    await vote(memeIds[VOTES + 9]!);
    await sleep(1000);
    const latencies: number[] = [];
    const cpuBefore = usage(b).cpuMs;
    for (let v = 0; v < VOTES; v++) {
      const memeId = memeIds[v]!;
      const needle = `"id":${memeId},`;
      let reached = 0;
      const voter = await readyVoter();
      const start = performance.now();
      const all = new Promise<void>((resolve) => {
        for (const s of fan) {
          s.onEvent = (type, data) => {
            if (type !== 'vote' || !data.includes(needle)) return;
            latencies.push(performance.now() - start);
            if (++reached === fan.length) resolve();
          };
        }
      });
      await vote(memeId, voter);
      await Promise.race([all, sleep(10_000)]);
      if (reached < fan.length) console.warn(`vote ${v}: ${reached}/${fan.length} streams reached`);
    }
    const cpuMs = usage(b).cpuMs - cpuBefore;
    latencies.sort((x, y) => x - y);
    rows.push([
      `vote on A -> ${FANOUT} streams on B, p50`,
      `${percentile(latencies, 50).toFixed(0)} ms`,
      `${VOTES} votes, ${latencies.length} deliveries`,
    ]);
    rows.push([
      `vote on A -> ${FANOUT} streams on B, p95`,
      `${percentile(latencies, 95).toFixed(0)} ms`,
      'goal <= 1,000 ms',
    ]);
    rows.push([
      'CPU per delivered event (node B)',
      `${((cpuMs * 1000) / Math.max(1, latencies.length)).toFixed(1)} us`,
      `${cpuMs.toFixed(0)} ms CPU for ${latencies.length}`,
    ]);
    for (const s of fan) s.request.destroy();

    // 3. A stream resumed on the other node after 50 events loses none.
    const watcher = await openStream(b);
    await vote(memeIds[VOTES]!);
    await sleep(500);
    const resumeFrom = watcher.lastId!;
    watcher.request.destroy();
    for (let i = 0; i < 10; i++) await vote(memeIds[VOTES + (i % 10)]!);
    await sleep(600);
    for (let i = 0; i < 10; i++) await vote(memeIds[VOTES + (i % 10)]!);
    await sleep(600);
    const got: string[] = [];
    const resumed = await openStream(a, resumeFrom, (type, _data, id) => {
      if (type === 'vote') got.push(id);
    });
    await sleep(1500);
    resumed.request.destroy();
    const ids = got.map(Number);
    const ordered = ids.every((id, i) => i === 0 || id > ids[i - 1]!);
    // Twenty votes on ten memes in two bursts: one event per meme per burst after coalescing.
    rows.push([
      'votes replayed on resume (other node)',
      `${ids.length}`,
      `${ordered ? 'in order' : 'OUT OF ORDER'}, ids after ${resumeFrom}; 20 votes on 10 memes in 2 bursts`,
    ]);

    // 4. Baseline: the same FANOUT pages polling the gallery and the board every 5 s.
    const pollCpuBefore = usage(b).cpuMs;
    let requests = 0;
    const deadline = Date.now() + POLL_SECONDS * 1000;
    const agent = new http.Agent({ keepAlive: true, maxSockets: 256 });
    const poller = async (offset: number) => {
      await sleep(offset);
      while (Date.now() < deadline) {
        await Promise.all(
          [`${memePaths.list}`, `${gamePaths.leaderboard}?limit=5`].map(
            (path) =>
              new Promise<void>((resolve) => {
                http
                  .get(`${b.origin}${path}`, { agent }, (res) => {
                    res.resume();
                    res.on('end', () => resolve());
                  })
                  .on('error', () => resolve());
              }),
          ),
        );
        requests += 2;
        await sleep(5000);
      }
    };
    await Promise.all(Array.from({ length: FANOUT }, (_, i) => poller((i * 5000) / FANOUT)));
    agent.destroy();
    const pollCpu = usage(b).cpuMs - pollCpuBefore;
    rows.push([
      `baseline: ${FANOUT} pages polling every 5 s`,
      `${(requests / POLL_SECONDS).toFixed(0)} req/s`,
      `change seen after 2,500 ms on average (5,000 ms worst)`,
    ]);
    rows.push([
      'baseline: CPU of node B while polling',
      `${((pollCpu / (POLL_SECONDS * 1000)) * 100).toFixed(1)} %`,
      `${pollCpu.toFixed(0)} ms CPU in ${POLL_SECONDS} s`,
    ]);
    const idleCpuStart = usage(b).cpuMs;
    const idle = await Promise.all(Array.from({ length: FANOUT }, () => openStream(b)));
    const idleStart = usage(b).cpuMs;
    await sleep(POLL_SECONDS * 1000);
    const idleCpu = usage(b).cpuMs - idleStart;
    for (const s of idle) s.request.destroy();
    void idleCpuStart;
    rows.push([
      `streams: ${FANOUT} idle streams, CPU of node B`,
      `${((idleCpu / (POLL_SECONDS * 1000)) * 100).toFixed(1)} %`,
      `${idleCpu.toFixed(0)} ms CPU in ${POLL_SECONDS} s (heartbeats)`,
    ]);
  } finally {
    await Promise.all([a.stop(), b.stop()]);
    await site.close();
  }
  const width = Math.max(...rows.map((r) => r[0].length));
  console.log(
    `\nbench:live (bus: ${values.bus}, two nodes on one PostgreSQL, ${new Date().toISOString()})`,
  );
  for (const [what, value, note] of rows)
    console.log(`${what.padEnd(width)}  ${value.padStart(10)}  ${note}`);
}

await main();
