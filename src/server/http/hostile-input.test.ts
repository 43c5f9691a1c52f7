import type { AddressInfo } from 'node:net';
import net from 'node:net';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REQUEST_TIMEOUT_MS } from '../app.ts';
import { createTestApp, TestClient, uniqueName, type TestApp } from '#test-support/test-app.ts';
import { databaseKinds } from '#test-support/test-database.ts';
import { MEME_CATEGORY_VALUES } from '#shared/categories.ts';

/** Every route the app serves, read from Fastify itself so new routes are swept too. */
function listRoutes(app: TestApp['app']): Array<{ path: string; methods: string[] }> {
  return app
    .printRoutes({ commonPrefix: false })
    .split('\n')
    .map((line) => /── (\S+) \(([^)]+)\)/.exec(line))
    .filter((m): m is RegExpExecArray => m !== null)
    .map((m) => ({ path: m[1]!, methods: m[2]!.split(', ').filter((x) => x !== 'HEAD') }));
}

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

const weirdSegment = fc.oneof(
  fc.string(),
  fc.constantFrom(
    '..',
    '%2e%2e',
    '0',
    '-1',
    '1e309',
    '9999999999999999999999',
    '2147483648',
    'null',
    '%00',
    '\u0000',
    '🙂',
    'a'.repeat(500),
  ),
  fc.integer().map(String),
);

const body = fc.oneof(
  fc.constant(undefined),
  fc.jsonValue().map((v) => JSON.stringify(v)),
  fc.string(),
  fc.constantFrom(
    '{',
    '[]',
    'null',
    '{"username":{"$gt":""}}',
    '{"__proto__":{"admin":true}}',
    '"'.repeat(10),
    '{"username":"a\\u0000b","password":"secret1"}',
    '{"title":"a\\u0000b"}',
  ),
  fc.record({ username: fc.string(), password: fc.string() }).map((v) => JSON.stringify(v)),
  fc
    .dictionary(
      fc.constantFrom(
        'title',
        'category',
        'imageUrl',
        'voteType',
        'amount',
        'runId',
        'score',
        'inputs',
      ),
      fc.jsonValue(),
    )
    .map((v) => JSON.stringify(v)),
);

const contentType = fc.constantFrom(
  undefined,
  'application/json',
  'application/json; charset=utf-8',
  'text/plain',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=x',
  'application/xml',
  'garbage',
);

describe.each(databaseKinds)('hostile input on %s', (kind) => {
  let t: TestApp;
  let member: TestClient;
  const memberName = uniqueName('sweeper');
  beforeAll(async () => {
    t = await createTestApp(kind);
    member = new TestClient(t.app);
    await member.register(memberName);
  });
  afterAll(async () => t?.close());

  it('never answers 5xx and changes nothing when it refuses', async () => {
    const routes = listRoutes(t.app);
    expect(routes.length).toBeGreaterThanOrEqual(7);
    const request = fc.record({
      route: fc.constantFrom(...routes),
      otherMethod: fc.option(fc.constantFrom('GET', 'POST', 'PUT', 'PATCH', 'DELETE'), { freq: 4 }),
      params: fc.array(weirdSegment, { minLength: 3, maxLength: 3 }),
      query: fc.dictionary(
        fc.constantFrom('limit', 'before', 'category', 'x', 'limit[]'),
        fc.oneof(fc.string(), weirdSegment),
      ),
      body,
      contentType,
      asMember: fc.boolean(),
      csrf: fc.constantFrom('valid', 'none', 'garbage'),
      origin: fc.option(fc.constantFrom('https://evil.example', 'null', 'http://localhost:80'), {
        freq: 5,
      }),
      cookie: fc.option(fc.string(), { freq: 6 }),
    });

    await fc.assert(
      fc.asyncProperty(request, async (r) => {
        let i = 0;
        const path = r.route.path.replace(/:\w+/g, () => encodeURIComponent(r.params[i++ % 3]!));
        const qs = new URLSearchParams(r.query).toString();
        const method = (r.otherMethod ?? r.route.methods[0] ?? 'GET') as
          'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
        const headers: Record<string, string> = {};
        if (r.contentType) headers['content-type'] = r.contentType;
        if (r.origin) headers.origin = r.origin;
        if (r.csrf === 'valid' && r.asMember) headers['x-csrf-token'] = await member.token();
        if (r.csrf === 'garbage') headers['x-csrf-token'] = 'garbage';
        if (r.asMember) {
          headers.cookie = [...member.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
        } else if (r.cookie !== null) {
          headers.cookie = `sid=${encodeURIComponent(r.cookie)}; csrf=${encodeURIComponent(r.cookie)}`;
        }
        const before = await tableCounts(t);
        const res = await t.app.inject({
          method,
          url: qs ? `${path}?${qs}` : path,
          headers,
          ...(r.body !== undefined && method !== 'GET' ? { payload: r.body } : {}),
        });
        expect(res.statusCode, `${method} ${path} -> ${res.body}`).toBeLessThan(500);
        if (res.statusCode >= 400) {
          expect(res.json<{ message: string }>().message).toEqual(expect.any(String));
          expect(await tableCounts(t)).toEqual(before);
        }
        // A valid logout ends the member's session; sign back in so later runs stay members.
        if (res.cookies.some((c) => c.name === 'sid' && c.value === '') && r.asMember) {
          expect((await member.login(memberName)).statusCode).toBe(200);
        }
      }),
      { numRuns: 300 },
    );
  }, 120_000);

  // PostgreSQL's text cannot hold NUL and its ids are 32-bit: such values must stop at the schema
  // (or, for a login, fail as an unknown name) before they reach the database.
  it('refuses values the database cannot hold with 4xx', async () => {
    const visitor = new TestClient(t.app);
    const login = await visitor.login('ab\u0000c');
    expect(login.statusCode, login.body).toBe(401);
    expect(login.json()).toMatchObject({ message: 'Invalid username or password' });

    const page = await visitor.request('GET', '/api/memes?before=999999999999999');
    expect(page.statusCode, page.body).toBe(400);
    expect(page.json()).toMatchObject({
      message: 'before must be a cursor from the previous page',
    });

    for (const id of ['2147483648', '9007199254740991']) {
      const vote = await visitor.request('POST', `/api/memes/${id}/vote`, {
        body: { voteType: 'up' },
      });
      expect(vote.statusCode, vote.body).toBe(400);
      expect(vote.json()).toMatchObject({ message: 'Unknown meme' });
    }

    const before = await tableCounts(t);
    const meme = await member.request('POST', '/api/memes', {
      body: {
        title: 'a\u0000b',
        category: MEME_CATEGORY_VALUES[0],
        imageUrl: `/objects/memes/${'a'.repeat(64)}.png`,
      },
    });
    expect(meme.statusCode, meme.body).toBe(400);
    expect(meme.json()).toMatchObject({
      message: 'Title contains characters that are not allowed',
    });
    const image = await member.request('PUT', '/api/meme-images', {
      body: { imageUrl: `/api/uploads/${'a'.repeat(5000)}` },
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
      const score = await visitor.request('POST', '/api/game-scores', {
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
        message: 'playerName contains characters that are not allowed',
      });
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
