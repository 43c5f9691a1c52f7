import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MemoryReads } from './memory-reads.ts';

describe('MemoryReads', () => {
  let on = true;
  let server: http.Server;
  let origin = '';
  beforeAll(async () => {
    // The listener behind the memory reads (Fastify in the app) answers 418 here.
    server = http.createServer((_req, res) => res.writeHead(418).end('behind'));
    const reads = new MemoryReads({
      headers: { 'x-frame-options': 'DENY' },
      requestId: () => 'req-1',
      isOn: () => on,
    });
    reads.add('/api/thing', (query) =>
      query === '' ? '["ü"]' : query === 'n=1' ? '[1]' : undefined,
    );
    reads.install(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise((resolve) => server.close(resolve)));

  async function send(path: string, method = 'GET') {
    const res = await fetch(`${origin}${path}`, { method });
    return { status: res.status, body: await res.text(), headers: res.headers };
  }

  it('writes the answer its read gives, with the headers and its length in bytes', async () => {
    const res = await send('/api/thing');
    expect(res).toMatchObject({ status: 200, body: '["ü"]' });
    expect(Object.fromEntries(res.headers)).toMatchObject({
      'x-frame-options': 'DENY',
      'x-request-id': 'req-1',
      'cache-control': 'no-cache',
      'content-type': 'application/json; charset=utf-8',
      'content-length': '6',
    });
    expect(await send('/api/thing?n=1')).toMatchObject({ status: 200, body: '[1]' });
  });

  it('passes on what its read does not answer, other paths and methods, and everything while off', async () => {
    for (const path of ['/api/thing?n=2', '/api/thing/', '/api/things', '/']) {
      expect(await send(path), path).toMatchObject({ status: 418, body: 'behind' });
    }
    expect((await send('/api/thing', 'HEAD')).status).toBe(418);
    expect((await send('/api/thing', 'POST')).status).toBe(418);
    on = false;
    try {
      expect((await send('/api/thing')).status).toBe(418);
    } finally {
      on = true;
    }
  });

  it('goes in front of exactly one listener', () => {
    const reads = new MemoryReads({ headers: {}, requestId: () => '', isOn: () => true });
    expect(() => reads.install(http.createServer())).toThrow(/exactly one request listener/);
  });
});
