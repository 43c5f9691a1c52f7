import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { buildApp } from '#server/app.ts';
import type { Clock } from '#server/clock.ts';
import { loadConfig, type AppConfig } from '#server/config.ts';
import { createTestDatabase, type DatabaseKind } from './test-database.ts';

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
  close(): Promise<void>;
}

/** A fresh app on a fresh database of the given kind, built exactly as production builds it. */
export async function createTestApp(
  kind: DatabaseKind,
  overrides: Partial<AppConfig> = {},
): Promise<TestApp> {
  const testDb = await createTestDatabase(kind);
  const config: AppConfig = {
    ...loadConfig({ NODE_ENV: 'test', DATA_DIR: testDb.dataDir, SESSION_SECRET: 'test-secret-'.padEnd(48, 'x') }),
    database: testDb.database,
    clientDistDir: undefined,
    ...overrides,
  };
  const clock = new TestClock();
  const app = await buildApp(config, { clock, logger: false });
  return {
    app,
    config,
    clock,
    async close() {
      await app.close();
      await testDb.drop();
    },
  };
}

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** A browser-like client over inject(): keeps cookies and sends the CSRF header on mutations. */
export class TestClient {
  readonly cookies = new Map<string, string>();
  private csrfToken: string | undefined;

  /** `remoteAddress`: the client's IP as the server sees it (inject's default is 127.0.0.1). */
  constructor(
    private readonly app: FastifyInstance,
    private readonly remoteAddress?: string,
  ) {}

  async request(
    method: Method,
    url: string,
    options: { body?: unknown; headers?: Record<string, string>; csrf?: boolean } = {},
  ): Promise<LightMyRequestResponse> {
    const headers: Record<string, string> = { ...options.headers };
    if (options.body !== undefined) headers['content-type'] ??= 'application/json';
    if (method !== 'GET' && options.csrf !== false) headers['x-csrf-token'] ??= await this.token();
    if (this.cookies.size > 0) {
      headers.cookie = [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    }
    const inject: InjectOptions = { method, url, headers, remoteAddress: this.remoteAddress };
    if (options.body !== undefined) {
      inject.payload = typeof options.body === 'string' ? options.body : JSON.stringify(options.body);
    }
    const res = await this.app.inject(inject);
    for (const cookie of res.cookies) {
      if (cookie.maxAge === 0 || cookie.value === '') this.cookies.delete(cookie.name);
      else this.cookies.set(cookie.name, cookie.value);
      // Login, register and logout renew the csrf cookie; the site's client then drops its token.
      if (cookie.name.endsWith('csrf')) this.csrfToken = undefined;
    }
    return res;
  }

  async token(): Promise<string> {
    if (!this.csrfToken) {
      const res = await this.request('GET', '/api/csrf-token');
      this.csrfToken = res.json<{ csrfToken: string }>().csrfToken;
    }
    return this.csrfToken;
  }

  async register(username: string, password = 'password123'): Promise<{ id: number; username: string }> {
    const res = await this.request('POST', '/api/auth/register', { body: { username, password }, csrf: false });
    if (res.statusCode !== 201) throw new Error(`register failed: ${res.statusCode} ${res.body}`);
    return res.json<{ user: { id: number; username: string } }>().user;
  }

  async login(username: string, password = 'password123'): Promise<LightMyRequestResponse> {
    return this.request('POST', '/api/auth/login', { body: { username, password }, csrf: false });
  }
}

let counter = 0;
const runTag = Math.random().toString(36).slice(2, 8);
/** A username no other test has used, in this run or an earlier one (Redis outlives runs). */
export function uniqueName(prefix = 'user'): string {
  counter += 1;
  return `${prefix}_${runTag}_${counter}`.slice(0, 32);
}
