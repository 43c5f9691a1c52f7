import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, expect } from 'vitest';
import { declaredErrors } from '#shared/api/endpoint.ts';
import { buildApp, type BuildOptions } from '#server/app.ts';
import type { Clock } from '#server/clock.ts';
import { loadConfig, type AppConfig } from '#server/config.ts';
import { createTestDatabase, type DatabaseKind } from './test-database.ts';
import { sleep } from './sleep.ts';

export class TestClock implements Clock {
  constructor(private current = Date.UTC(2026, 10, 18, 12, 0, 0)) {}
  now(): number {
    return this.current;
  }
  advance(ms: number): void {
    this.current += ms;
  }
}

export interface TestApp {
  app: FastifyInstance;
  config: AppConfig;
  clock: TestClock;
  /** The database as its owner sees it (the migration role on PostgreSQL), for DDL in a test. */
  owner: AppConfig['database'];
  /**
   * Refusals the app answered with a code its endpoint does not declare (decision 024): close()
   * fails when any is listed.
   */
  undeclared: string[];
  /** Listens on a loopback port, for tests that need real sockets; gives the app's origin. */
  listen(): Promise<string>;
  close(): Promise<void>;
}

/** A fresh app on a fresh database of the given kind, built exactly as production builds it. */
export async function createTestApp(
  kind: DatabaseKind,
  overrides: Partial<AppConfig> = {},
  /** pino options for a test that reads the request log; silent otherwise. */
  logger: BuildOptions['logger'] = false,
): Promise<TestApp> {
  const testDb = await createTestDatabase(kind, { migrated: true });
  const config: AppConfig = {
    ...loadConfig({
      NODE_ENV: 'test',
      DATA_DIR: testDb.dataDir,
      SESSION_SECRET: 'test-secret-'.padEnd(48, 'x'),
    }),
    database: testDb.database,
    clientDistDir: undefined,
    ...overrides,
  };
  const clock = new TestClock();
  const app = await buildApp(config, { clock, logger });
  const undeclared = recordUndeclaredRefusals(app);
  return {
    app,
    undeclared,
    config,
    clock,
    owner: testDb.owner,
    listen: () => app.listen({ port: 0, host: '127.0.0.1' }),
    async close() {
      // Fastify closes only connections idle at that moment; one whose streamed response just
      // ended may not count as idle yet, and would hold the close for the 72 s keep-alive.
      app.server.closeAllConnections();
      await app.close();
      // pg's pool.end() resolves before its sockets have closed; dropping the database at once
      // (WITH FORCE) would kill them mid-goodbye and the pool, having no error listener, throws.
      if (kind === 'postgres') await sleep(200);
      await testDb.drop();
      // Every suite closes its app: a refusal its endpoint does not declare fails the suite here.
      expect(undeclared, 'refusals with a code the endpoint does not declare').toEqual([]);
    },
  };
}

/**
 * The describe block's app: built before its first test, closed after its last. The block's own
 * beforeAll hooks run after this one, so they can use it.
 */
export function suiteApp(kind: DatabaseKind, overrides: Partial<AppConfig> = {}): TestApp {
  const suite = {} as TestApp;
  beforeAll(async () => {
    Object.assign(suite, await createTestApp(kind, overrides));
  });
  afterAll(async () => suite.close?.());
  return suite;
}

/**
 * Watches every answer of `app`: a 4xx whose `code` is not among its endpoint's declared
 * errors (or the common ones) is listed, so an endpoint's `errors` stay what the route answers.
 */
function recordUndeclaredRefusals(app: FastifyInstance): string[] {
  const found: string[] = [];
  app.addHook('onSend', async (request, reply, payload) => {
    const endpoint = request.routeOptions.config?.endpoint;
    // A refusal (4xx) is the contract's; a 5xx is a failure, which the tests that cause one assert.
    const refusal = reply.statusCode >= 400 && reply.statusCode < 500;
    if (!endpoint || !refusal || typeof payload !== 'string') return payload;
    let code: unknown;
    try {
      code = (JSON.parse(payload) as { code?: unknown }).code;
    } catch {
      return payload;
    }
    const declared: Record<number, readonly string[] | undefined> = declaredErrors(endpoint);
    if (typeof code !== 'string' || !declared[reply.statusCode]?.includes(code)) {
      found.push(`${endpoint.method} ${endpoint.path} -> ${reply.statusCode} ${String(code)}`);
    }
    return payload;
  });
  return found;
}

let counter = 0;
const runTag = Math.random().toString(36).slice(2, 8);
/** A username no other test has used, in this run or an earlier one (Redis outlives runs). */
export function uniqueName(prefix = 'user'): string {
  counter += 1;
  return `${prefix}_${runTag}_${counter}`.slice(0, 32);
}
