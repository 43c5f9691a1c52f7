import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';

/**
 * A browser-like client over real HTTP (the app listening on a loopback port): keeps cookies,
 * sends the CSRF header on mutations and the page's Origin, as the site's own pages would.
 * The upload tests use it so the file travels through sockets, parsers and streams as it will
 * in production.
 */
export class HttpTestClient {
  readonly cookies = new Map<string, string>();
  private csrfToken: string | undefined;

  private constructor(readonly origin: string) {}

  static async listen(app: FastifyInstance): Promise<string> {
    await app.listen({ port: 0, host: '127.0.0.1' });
    return `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  }

  /**
   * Drops keep-alive connections first: Fastify closes only connections idle at that moment,
   * and one whose streamed response just ended may not count as idle yet, which would hold
   * the close for Fastify's 72 s keep-alive timeout.
   */
  static async close(
    t: { app: FastifyInstance; close(): Promise<void> } | undefined,
  ): Promise<void> {
    t?.app.server.closeAllConnections();
    await t?.close();
  }

  static for(origin: string): HttpTestClient {
    return new HttpTestClient(origin);
  }

  url(path: string): string {
    return new URL(path, this.origin).toString();
  }

  async fetch(
    method: string,
    path: string,
    options: {
      json?: unknown;
      body?: BodyInit | Buffer;
      headers?: Record<string, string>;
      csrf?: boolean;
    } = {},
  ): Promise<Response> {
    const headers: Record<string, string> = { origin: this.origin, ...options.headers };
    let body = Buffer.isBuffer(options.body) ? new Uint8Array(options.body) : options.body;
    if (options.json !== undefined) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(options.json);
    }
    if (method !== 'GET' && method !== 'HEAD' && options.csrf !== false) {
      headers['x-csrf-token'] ??= await this.token();
    }
    if (this.cookies.size > 0)
      headers.cookie = [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    const res = await fetch(this.url(path), { method, headers, body });
    for (const line of res.headers.getSetCookie()) {
      const [pair] = line.split(';', 1);
      const eq = pair!.indexOf('=');
      const name = pair!.slice(0, eq);
      const value = pair!.slice(eq + 1);
      if (value === '' || /max-age=0/i.test(line)) this.cookies.delete(name);
      else this.cookies.set(name, value);
      // Login, register and logout renew the csrf cookie; the site's client then drops its token.
      if (name.endsWith('csrf')) this.csrfToken = undefined;
    }
    return res;
  }

  async token(): Promise<string> {
    if (!this.csrfToken) {
      const res = await this.fetch('GET', '/api/csrf-token');
      this.csrfToken = ((await res.json()) as { csrfToken: string }).csrfToken;
    }
    return this.csrfToken;
  }

  async register(username: string, password = 'password123'): Promise<void> {
    const res = await this.fetch('POST', '/api/auth/register', {
      json: { username, password },
      csrf: false,
    });
    if (res.status !== 201) throw new Error(`register failed: ${res.status} ${await res.text()}`);
  }
}
