import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authPaths, gamePaths, memePaths } from '#shared/api/paths.ts';
import { createTestApp, uniqueName, type TestApp } from '#test-support/test-app.ts';
import { TestClient } from '#test-support/test-client.ts';
import { databaseKinds } from '#test-support/test-database.ts';
import { REPO_ROOT } from '#test-support/node-process.ts';
import { listenForMetrics } from './metrics.ts';

const TOKEN = 'metrics-token-'.padEnd(40, 'm');
const bearer = { authorization: `Bearer ${TOKEN}` };
const metricsOff = { port: undefined, host: '127.0.0.1', token: undefined };

/** Every metric name the Grafana dashboard names anywhere: queries, variables, descriptions. */
function dashboardMetricNames(): string[] {
  const file = path.join(REPO_ROOT, 'docs/grafana-dashboard.json');
  const strings: string[] = [];
  const walk = (value: unknown): void => {
    if (typeof value === 'string') strings.push(value);
    else if (value && typeof value === 'object') Object.values(value).forEach(walk);
  };
  walk(JSON.parse(fs.readFileSync(file, 'utf8')));
  const names = strings.flatMap((text) => [
    ...text.matchAll(/\b((?:grind|process|nodejs)_[a-z0-9_]+)\b/g),
  ]);
  return [...new Set(names.map((m) => m[1]!))];
}

/** The metric families a scrape holds, by the names their samples carry. */
function sampleNames(text: string): Set<string> {
  return new Set(
    text
      .split('\n')
      .filter((line) => line !== '' && !line.startsWith('#'))
      .map((line) => /^[a-zA-Z_:][a-zA-Z0-9_:]*/.exec(line)![0]),
  );
}

function typedNames(text: string): Set<string> {
  return new Set([...text.matchAll(/^# TYPE (\S+) /gm)].map((m) => m[1]!));
}

describe.each(databaseKinds)('metrics (%s)', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(kind, {
      metrics: { port: undefined, host: '127.0.0.1', token: TOKEN },
    });
  });
  afterAll(() => t.close());

  it('answers 401 without the bearer token, and the figures with it', async () => {
    const client = TestClient.inject(t.app);
    const wrong: Record<string, string>[] = [
      {},
      { authorization: 'Bearer wrong' },
      { authorization: TOKEN },
      { authorization: `Basic ${TOKEN}` },
    ];
    for (const headers of wrong) {
      const refused = await client.request('GET', '/metrics', { headers });
      expect(refused.statusCode).toBe(401);
      expect(refused.headers['www-authenticate']).toMatch(/^Bearer/);
      expect(refused.body).not.toContain('grind_');
    }
    const res = await client.request('GET', '/metrics', { headers: bearer });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
    expect(res.body).toContain('# TYPE nodejs_eventloop_lag_p99_seconds gauge');
    expect(res.body).toContain('# TYPE process_resident_memory_bytes gauge');
  });

  it('times requests by route pattern, method and status class, never by path or name', async () => {
    const client = TestClient.inject(t.app);
    const name = uniqueName('metered');
    await client.register(name);
    await client.request('GET', memePaths.list);
    await client.request('GET', '/api/memes/987654321');
    await client.request('GET', '/no-such-page-42');
    const text = (await client.request('GET', '/metrics', { headers: bearer })).body;
    const line = (route: string, method: string, status: string) =>
      `grind_http_request_duration_seconds_count{route="${route}",method="${method}",status_class="${status}"}`;
    expect(text).toContain(`${line(memePaths.list, 'GET', '2xx')} 1`);
    expect(text).toContain(`${line(memePaths.one, 'GET', '4xx')} 1`);
    expect(text).toContain(`${line(authPaths.register, 'POST', '2xx')} 1`);
    expect(text).toContain(line('unmatched', 'GET', '4xx'));
    expect(text).not.toContain('987654321');
    expect(text).not.toContain('no-such-page');
    expect(text).not.toContain(name);
  });

  it('counts rate-limit refusals by limit, never by network', async () => {
    const client = TestClient.inject(t.app, '203.0.113.77');
    const report = () =>
      client.request('POST', gamePaths.progress.replace(':runId', 'A'.repeat(22)), {
        body: { step: 60, jumps: [] },
      });
    let status = 0;
    for (let i = 0; i < 100 && status !== 429; i++) status = (await report()).statusCode;
    expect(status).toBe(429);
    const text = (await client.request('GET', '/metrics', { headers: bearer })).body;
    expect(text).toContain('grind_rate_limit_refusals_total{limit="unknown-run",scope="net"} 1');
    expect(text).not.toContain('203.0.113.77');
  });

  it('exports every metric the Grafana dashboard reads', async () => {
    const text = (await TestClient.inject(t.app).request('GET', '/metrics', { headers: bearer }))
      .body;
    const typed = typedNames(text);
    const sampled = sampleNames(text);
    const names = dashboardMetricNames();
    expect(names.length).toBeGreaterThan(15);
    // A name with samples (a histogram's _bucket, _sum, _count), or a family's own name. The
    // pool's figures are PostgreSQL's: SQLite has no pool and exports none.
    const missing = names.filter(
      (n) =>
        !sampled.has(n) && !typed.has(n) && !(kind === 'sqlite' && n.startsWith('grind_db_pool_')),
    );
    expect(missing).toEqual([]);
  });
});

describe('the metrics port', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp('sqlite', {
      metrics: { port: 0, host: '127.0.0.1', token: undefined },
    });
  });
  afterAll(() => t.close());

  it('serves the figures on a loopback port of its own, and nothing on the main port', async () => {
    const server = (await listenForMetrics(t.app))!;
    try {
      expect(server.origin).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      await TestClient.inject(t.app).request('GET', memePaths.list);
      const res = await fetch(`${server.origin}/metrics`);
      expect(res.status).toBe(200);
      expect(await res.text()).toContain(
        `grind_http_request_duration_seconds_count{route="${memePaths.list}",method="GET",status_class="2xx"} 1`,
      );
      expect((await fetch(`${server.origin}/`)).status).toBe(404);
      expect((await TestClient.inject(t.app).request('GET', '/metrics')).statusCode).toBe(404);
    } finally {
      await server.close();
    }
  });
});

describe('without METRICS_PORT or METRICS_TOKEN', () => {
  it('serves no metrics and opens no port', async () => {
    const t = await createTestApp('sqlite', { metrics: metricsOff });
    try {
      expect(await listenForMetrics(t.app)).toBeUndefined();
      expect((await TestClient.inject(t.app).request('GET', '/metrics')).statusCode).toBe(404);
    } finally {
      await t.close();
    }
  });
});
