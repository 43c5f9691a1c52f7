import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { memePaths } from '#shared/api/paths.ts';
import {
  startOtlpReceiver,
  type OtlpReceiver,
  type ReceivedSpan,
} from '#test-support/otlp-receiver.ts';
import { createTestApp } from '#test-support/test-app.ts';
import { TestClient } from '#test-support/test-client.ts';
import { databaseKinds } from '#test-support/test-database.ts';

const UPLOAD_TOKEN = 'signed-upload-token-4242';
const SERVER = 2;
const CLIENT = 3;

/** Whether `span` descends from `ancestor` through the spans of its trace. */
function descendsFrom(span: ReceivedSpan, ancestor: ReceivedSpan, all: ReceivedSpan[]): boolean {
  const byId = new Map(all.map((s) => [s.spanId, s]));
  for (let at = byId.get(span.parentSpanId); at; at = byId.get(at.parentSpanId)) {
    if (at.spanId === ancestor.spanId) return true;
  }
  return false;
}

describe.each(databaseKinds)('traces over OTLP/HTTP (%s)', (kind) => {
  let receiver: OtlpReceiver;
  const lines: { msg?: string; trace_id?: string; req?: { url?: string } }[] = [];
  const missingImage = `/objects/memes/${'a'.repeat(64)}.webp`;

  // The app sends what it holds when it closes: the spans are all in before the first test.
  beforeAll(async () => {
    receiver = await startOtlpReceiver();
    const stream = new Writable({
      write(chunk: Buffer, _encoding, done) {
        for (const line of chunk.toString().split('\n').filter(Boolean))
          lines.push(JSON.parse(line));
        done();
      },
    });
    const t = await createTestApp(
      kind,
      {
        tracing: {
          endpoint: receiver.endpoint,
          headers: { 'x-collector-key': 'k1' },
          serviceName: 'grind-under-test',
          sampleRatio: 1,
        },
      },
      { level: 'debug', stream },
    );
    const client = TestClient.inject(t.app);
    expect((await client.request('GET', memePaths.list)).statusCode).toBe(200);
    expect((await client.request('GET', missingImage)).statusCode).toBe(404);
    expect((await client.request('GET', '/healthz')).statusCode).toBe(200);
    await client.request('PUT', `/api/uploads/${UPLOAD_TOKEN}?x=1`, { body: 'x', csrf: false });
    await t.close();
  });
  afterAll(() => receiver.close());

  const requestSpan = (name: string) => {
    const found = receiver.spans.filter((s) => s.name === name);
    expect(found).toHaveLength(1);
    return found[0]!;
  };

  it("gives each request a span named by its route, holding the request's SQL", () => {
    const request = requestSpan(`GET ${memePaths.list}`);
    expect(request).toMatchObject({
      kind: SERVER,
      parentSpanId: '',
      service: 'grind-under-test',
      attributes: { 'http.route': memePaths.list, 'http.response.status_code': 200 },
    });
    const sql = receiver.spans.filter(
      (s) => s.traceId === request.traceId && s.attributes['db.system.name'] !== undefined,
    );
    expect(sql.length).toBeGreaterThan(0);
    for (const span of sql) {
      expect(span.kind).toBe(CLIENT);
      expect(span.attributes['db.system.name']).toBe(kind === 'postgres' ? 'postgresql' : 'sqlite');
      expect(descendsFrom(span, request, receiver.spans)).toBe(true);
    }
    expect(
      sql.some(
        (s) => s.name === 'SELECT' && /from "memes"/.test(String(s.attributes['db.query.text'])),
      ),
    ).toBe(true);
    expect(receiver.lastHeaders['x-collector-key']).toBe('k1');
  });

  it("gives the object store's calls spans in the request's trace", () => {
    const request = requestSpan('GET /objects/*');
    const read = receiver.spans.find(
      (s) => s.traceId === request.traceId && s.name === 'object-store readObject',
    );
    expect(read).toMatchObject({ kind: CLIENT, attributes: { 'object_store.kind': 'local' } });
    expect(descendsFrom(read!, request, receiver.spans)).toBe(true);
  });

  it("keeps an upload URL's token out of every span, as out of the logs", () => {
    const upload = receiver.spans.find((s) => s.name.startsWith('PUT /api/uploads/'));
    expect(upload?.attributes['url.path']).toBe('/api/uploads/[token]');
    expect(JSON.stringify(receiver.spans)).not.toContain(UPLOAD_TOKEN);
  });

  it('writes the trace id in the log lines of a request', () => {
    const request = requestSpan(`GET ${memePaths.list}`);
    const completed = lines.find(
      (l) => l.msg === 'request completed' && l.req?.url === memePaths.list,
    );
    expect(completed?.trace_id).toBe(request.traceId);
  });

  it('traces no probe, and nothing outside a request', () => {
    expect(receiver.spans.filter((s) => s.name.includes('/healthz'))).toEqual([]);
    // Start-up's migrations and the probe's statements belong to no request: no span of their own.
    const traced = new Set(
      receiver.spans.filter((s) => s.parentSpanId === '').map((s) => s.traceId),
    );
    expect(receiver.spans.every((s) => traced.has(s.traceId))).toBe(true);
    expect([...traced]).toHaveLength(3);
  });
});
