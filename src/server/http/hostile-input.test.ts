import type { AddressInfo } from 'node:net';
import net from 'node:net';
import { sql } from 'kysely';
import { beforeAll, describe, expect, it } from 'vitest';
import { REQUEST_TIMEOUT_MS } from '../app.ts';
import { hostileRequests, type RouteContract } from '#test-support/hostile-requests.ts';
import { suiteApp, type TestApp, uniqueName } from '#test-support/test-app.ts';
import { TestClient } from '#test-support/test-client.ts';
import { databaseKinds } from '#test-support/test-database.ts';
import { MEME_CATEGORY_VALUES } from '#shared/categories.ts';
import type { Endpoint } from '#shared/api/endpoint.ts';
import { gamePaths, memePaths, objectPaths, pathTo } from '#shared/api/paths.ts';
import { liveEventsEndpoint } from '#shared/api/live-endpoint.ts';

/**
 * Every route the app serves, read from Fastify's route tree (nested lines continue their
 * parent's path) so a new route cannot slip past the sweep. Wildcard routes print as a bare
 * `*` and are matched by the contract table's own check instead.
 */
function listRoutes(app: TestApp['app']): Array<{ path: string; methods: string[] }> {
  const stack: string[] = [];
  const routes: Array<{ path: string; methods: string[] }> = [];
  for (const line of app.printRoutes({ commonPrefix: false }).split('\n')) {
    const m = /^(.*?)[├└]── (\S+)(?: \(([^)]+)\))?/.exec(line);
    if (!m) continue;
    const depth = m[1]!.length / 4;
    stack.length = depth;
    const path = (stack[depth - 1] ?? '') + m[2]!;
    stack[depth] = path;
    if (m[3]) routes.push({ path, methods: m[3].split(', ').filter((x) => x !== 'HEAD') });
  }
  return routes;
}

const isEndpoint = (value: unknown): value is Endpoint =>
  typeof value === 'object' && value !== null && 'method' in value && 'access' in value;

/**
 * Every route with the zod schemas it declares: the endpoint objects of src/shared/api (the
 * console's among them), and the few routes that are not API endpoints. What the sweep breaks.
 */
/**
 * The event stream answers every visitor with a response that never ends, so a sweep request
 * would wait for ever: its refusal (too many streams per network) and resumption are tested in
 * src/server/live/events.test.ts.
 */
const notSwept = [`GET ${liveEventsEndpoint.path}`];

const contract: RouteContract[] = [
  ...Object.values(
    import.meta.glob(['../../shared/api/**/*.ts', '!../../shared/api/**/*.test.ts'], {
      eager: true,
    }),
  )
    .flatMap((module) => Object.values(module as Record<string, unknown>))
    .filter(isEndpoint)
    .filter((endpoint) => !notSwept.includes(`${endpoint.method} ${endpoint.path}`)),
  { method: 'GET', path: '/healthz' },
  { method: 'GET', path: '/readyz' },
  { method: 'GET', path: '/api/openapi.json' },
  { method: 'PUT', path: `${objectPaths.localUploadPrefix}*` },
  { method: 'GET', path: '/objects/*' },
];

/** Row counts of every table whose rows only a successful request may change. */
async function tableCounts(t: TestApp): Promise<Record<string, number>> {
  const tables = await t.app.deps.db.introspection.getTables();
  const counts: Record<string, number> = {};
  for (const { name } of tables) {
    // Failed logins are meant to leave a throttle counter behind.
    if (name === 'rate_limits' || name.startsWith('kysely_')) continue;
    const row = await t.app.deps.db
      .selectFrom(name as 'users')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    counts[name] = Number(row.n);
  }
  return counts;
}

/** Requests per database in the sweep. */
/**
 * Requests per engine. PostgreSQL's share is smaller: its state read (every table's count, after
 * each request) costs about four times SQLite's, and what it adds, its types' limits (NUL in
 * text, 32-bit ids), every route meets within a few thousand. HOSTILE_SWEEP_COUNT sets both.
 */
const SWEEP_COUNTS = {
  sqlite: Number(process.env.HOSTILE_SWEEP_COUNT ?? 10_000),
  postgres: Number(process.env.HOSTILE_SWEEP_COUNT ?? 3_000),
};

/**
 * One query over what a refused request must leave alone: every table's row count (the
 * throttle counters aside: a refused login is meant to count), every balance and vote count.
 */
async function stateQuery(t: TestApp): Promise<() => Promise<string>> {
  const db = t.app.deps.db;
  const tables = (await db.introspection.getTables())
    .map((table) => table.name)
    .filter((name) => name !== 'rate_limits' && !name.startsWith('kysely_'));
  const parts = [
    ...tables.map((name) => sql`(select count(*) from ${sql.table(name)})`),
    sql`(select coalesce(sum(coins), 0) from users)`,
    sql`(select coalesce(sum(upvotes * 1000003 + downvotes), 0) from memes)`,
  ];
  const query = sql<
    Record<string, unknown>
  >`select ${sql.join(parts.map((p, i) => sql`${p} as ${sql.id(`c${i}`)}`))}`;
  return async () => JSON.stringify(Object.values((await query.execute(db)).rows[0]!).map(Number));
}

describe.each(databaseKinds)('hostile input on %s', (kind) => {
  const t = suiteApp(kind);
  let member: TestClient;
  const memberName = uniqueName('sweeper');
  beforeAll(async () => {
    member = TestClient.inject(t.app);
    await member.register(memberName);
  });

  it('sweeps every route the app serves', () => {
    const served = listRoutes(t.app).filter((r) => r.path !== '*');
    const swept = new Set([...contract.map((r) => `${r.method} ${r.path}`), ...notSwept]);
    const missing = served
      .flatMap((r) => r.methods.map((m) => `${m} ${r.path}`))
      .filter((r) => !swept.has(r));
    expect(missing, 'routes without a contract entry in this file').toEqual([]);
    for (const r of contract) {
      expect(
        t.app.hasRoute({ method: r.method, url: r.path }),
        `${r.method} ${r.path} is served`,
      ).toBe(true);
    }
  });

  const SWEEP_COUNT = SWEEP_COUNTS[kind];
  it(`answers ${SWEEP_COUNT} hostile requests from the contract without a 5xx, a write or a bare refusal`, async () => {
    const seed = Number(process.env.HOSTILE_SEED ?? Date.now() % 2 ** 31);
    const requests = hostileRequests(contract, SWEEP_COUNT, seed);
    const state = await stateQuery(t);
    const failures: string[] = [];
    const statuses: Record<number, number> = {};
    // The member's cookies and token, and their session row: a valid logout in the sweep ends
    // the session, which is then put back as it was (signing in again would cost an Argon2
    // hash each time).
    const memberToken = await member.token();
    const memberCookie = member.cookieHeader();
    const session = await t.app.deps.db
      .selectFrom('sessions')
      .selectAll()
      .executeTakeFirstOrThrow();
    let before = await state();
    const started = performance.now();
    for (const r of requests) {
      const headers = { ...r.headers };
      if (r.asMember) {
        headers.cookie ??= memberCookie;
        if (r.method !== 'GET' && r.method !== 'HEAD') headers['x-csrf-token'] ??= memberToken;
      }
      const res = await t.app.inject({
        method: r.method as 'GET',
        url: r.url,
        headers,
        payload: r.payload,
        // Its own address, so the throttles it fills do not reach the tests after it.
        remoteAddress: '10.99.0.1',
      });
      statuses[res.statusCode] = (statuses[res.statusCode] ?? 0) + 1;
      const where = `${r.method} ${r.url.slice(0, 120)} [${r.what}] -> ${res.statusCode} ${res.body.slice(0, 200)}`;
      if (res.statusCode >= 500) failures.push(where);
      if (res.statusCode >= 400) {
        // API refusals are JSON { message }; other paths may answer the site's 404 page.
        if (r.url.startsWith('/api/') && r.method !== 'HEAD') {
          const body = (() => {
            try {
              return res.json<{ message?: unknown }>();
            } catch {
              return null;
            }
          })();
          if (typeof body?.message !== 'string' || body.message === '')
            failures.push(`no JSON message: ${where}`);
        }
      }
      // One state read per request: the state after one request is the state before the next.
      const after = await state();
      if (res.statusCode >= 400 && after !== before) failures.push(`wrote on a refusal: ${where}`);
      before = after;
      // A logout ends the member's session and a sign-up or login replaces it: put it back.
      if (r.asMember && res.cookies.some((c) => c.name === 'sid')) {
        await t.app.deps.db
          .insertInto('sessions')
          .values(session)
          .onConflict((oc) => oc.column('id_hash').doNothing())
          .execute();
        before = await state();
      }
      if (failures.length >= 20) break;
    }
    const seconds = (performance.now() - started) / 1000;
    console.log(
      `hostile sweep on ${kind}: ${requests.length} requests in ${seconds.toFixed(1)} s (seed ${seed}), statuses ${JSON.stringify(statuses)}`,
    );
    expect(failures, `seed ${seed} (HOSTILE_SEED=${seed} repeats it)`).toEqual([]);
  }, 600_000);

  // PostgreSQL's text cannot hold NUL and its ids are 32-bit: such values must stop at the schema
  // (or, for a login, fail as an unknown name) before they reach the database.
  it('refuses values the database cannot hold with 4xx', async () => {
    const visitor = TestClient.inject(t.app);
    const login = await visitor.login('ab\u0000c');
    expect(login.statusCode, login.body).toBe(400);
    expect(login.json()).toEqual({
      message: 'username must not contain a NUL character',
      code: 'VALIDATION',
    });

    const page = await visitor.request('GET', `${memePaths.list}?cursor=999999999999999`);
    expect(page.statusCode, page.body).toBe(400);
    expect(page.json()).toMatchObject({
      message: 'cursor must come from the previous page',
    });

    for (const id of ['2147483648', '9007199254740991']) {
      const vote = await visitor.request('POST', pathTo(memePaths.vote, { id }), {
        body: { voteType: 'up' },
      });
      expect(vote.statusCode, vote.body).toBe(400);
      expect(vote.json()).toMatchObject({ message: 'Unknown meme' });
    }

    const before = await tableCounts(t);
    const meme = await member.request('POST', memePaths.create, {
      body: {
        title: 'a\u0000b',
        category: MEME_CATEGORY_VALUES[0],
        imageUrl: `/objects/memes/${'a'.repeat(64)}.png`,
      },
    });
    expect(meme.statusCode, meme.body).toBe(400);
    expect(meme.json()).toMatchObject({ message: 'title must not contain a NUL character' });
    const image = await member.request('PUT', memePaths.memeImages, {
      body: { imageUrl: `${objectPaths.localUploadPrefix}${'a'.repeat(5000)}` },
    });
    expect(image.statusCode, image.body).toBe(400);
    expect(image.json()).toMatchObject({ message: 'imageUrl is too long' });

    // A name that reads as another (here with a zero-width space) is refused like a control character.
    for (const playerName of [
      'ab\u0000c',
      'ab\ud800cd',
      `${memberName}\u200b`,
      `\u200e${memberName}`,
    ]) {
      const score = await visitor.request('POST', gamePaths.scores, {
        body: {
          playerName,
          score: 1,
          level: 1,
          tasksCompleted: 1,
          powerUpsCollected: 0,
          gameTime: 1,
          runId: 'a'.repeat(22),
          inputs: [],
        },
      });
      expect(score.statusCode, score.body).toBe(400);
      expect(score.json()).toMatchObject({
        message: playerName.includes('\u0000')
          ? 'playerName must not contain a NUL character'
          : 'playerName contains characters that are not allowed',
      });
    }
    expect(await tableCounts(t)).toEqual(before);
  });

  // The audit sent these to the console as an admin: PostgreSQL answered 500 for each.
  it('refuses operator inputs the database cannot hold with 400, on every console route', async () => {
    const { operator } = await import('#test-support/operators.ts');
    const { consolePaths } = await import('#shared/api/console/common.ts');
    const admin = await operator(t, 'admin', { passkey: true, ip: '203.0.113.201' });
    const before = await tableCounts(t);
    const requests: Array<[string, string, unknown]> = [
      [
        'POST',
        consolePaths.memeDecision.replace(':id', '2147483648'),
        { decision: 'hide', reason: 'too big an id' },
      ],
      [
        'POST',
        consolePaths.appealDecision.replace(':id', '2147483648'),
        { decision: 'lift', reason: 'too big an id' },
      ],
      ['DELETE', consolePaths.passkey.replace(':id', '2147483648'), undefined],
      ['GET', `${consolePaths.log}?before=2147483648`, undefined],
      [
        'POST',
        consolePaths.suspend.replace(':username', memberName),
        { length: 'day', reason: 'a\u0000b' },
      ],
      [
        'POST',
        consolePaths.disqualify.replace(':runId', 'a\u0000b'),
        { reason: 'a bot played this' },
      ],
      ['POST', consolePaths.replayOpened.replace(':runId', 'a%00b'), undefined],
      ['GET', `${consolePaths.members}?q=a%00b`, undefined],
    ];
    for (const [method, path, body] of requests) {
      const res = await admin.client.request(method as 'POST', path, body ? { body } : {});
      expect(res.statusCode, `${method} ${path}: ${res.body}`).toBe(400);
      expect(res.json().code).toBe('VALIDATION');
    }
    expect(await tableCounts(t)).toEqual(before);
  });

  it('lets Node close a request still arriving after two minutes (Fastify never would)', () => {
    expect(t.app.server.requestTimeout).toBe(REQUEST_TIMEOUT_MS);
  });

  it('refuses an absolute-form request target, which would skip the API checks', async () => {
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = t.app.server.address() as AddressInfo;
    const before = await tableCounts(t);
    const answer = await new Promise<string>((resolve, reject) => {
      const socket = net.connect(port, '127.0.0.1', () => {
        const body = '{"voteType":"up"}';
        socket.end(
          `POST http://127.0.0.1:${port}/api/memes/1/vote HTTP/1.1\r\nHost: 127.0.0.1\r\n` +
            `Origin: https://evil.example\r\nContent-Type: application/json\r\n` +
            `Content-Length: ${body.length}\r\nConnection: close\r\n\r\n${body}`,
        );
      });
      let text = '';
      socket.on('data', (chunk) => (text += chunk));
      socket.on('end', () => resolve(text));
      socket.on('error', reject);
    });
    expect(answer).toMatch(/^HTTP\/1\.1 400 /);
    expect(answer).toContain('The request target must be a path');
    expect(await tableCounts(t)).toEqual(before);
  });
});
