import type { IncomingHttpHeaders } from 'node:http';
import type { FastifyInstance } from 'fastify';
import { parse as parseSetCookie, type Cookie } from 'set-cookie-parser';
import { authPaths } from '#shared/api/paths.ts';

/** A whole answer, read before it is returned: the same shape over inject() and over HTTP. */
export interface Reply {
  statusCode: number;
  /** Lower-case names; `set-cookie` a list, every other value a string. */
  headers: IncomingHttpHeaders;
  /** The body as UTF-8 text. */
  body: string;
  rawPayload: Buffer;
  /** The Set-Cookie headers, parsed. */
  cookies: Cookie[];
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- as inject()'s json(): tests read what they assert
  json<T = any>(): T;
}

export type Method = 'GET' | 'HEAD' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'OPTIONS';

export interface RequestOptions {
  /** Sent as JSON, unless a string (sent as it is, typed JSON unless told) or bytes (untyped). */
  body?: unknown;
  headers?: Record<string, string>;
  /**
   * The caller's address as a trusted proxy reports it (X-Forwarded-For), for this call: a
   * browser that moves between networks.
   */
  forwardedFor?: string;
  /** Send the CSRF token; default on for everything but GET and HEAD. */
  csrf?: boolean;
  /** Over HTTP: the node that gets this call (a site of several); default the client's origin. */
  node?: string;
  /** Over HTTP: gives up on the call. */
  signal?: AbortSignal;
}

interface Outgoing {
  method: Method;
  path: string;
  headers: Record<string, string>;
  payload: string | Buffer | undefined;
  node: string | undefined;
  signal: AbortSignal | undefined;
}

type Transport = (request: Outgoing) => Promise<Reply>;

function reply(statusCode: number, headers: IncomingHttpHeaders, rawPayload: Buffer): Reply {
  const body = rawPayload.toString('utf8');
  return {
    statusCode,
    headers,
    body,
    rawPayload,
    cookies: parseSetCookie(headers['set-cookie'] ?? []),
    json: () => JSON.parse(body),
  };
}

/** inject()'s headers with every value a string, as they arrive over HTTP. */
function asReceived(headers: Record<string, unknown>): IncomingHttpHeaders {
  const received: IncomingHttpHeaders = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined) continue;
    received[name] = Array.isArray(value) ? value.map(String) : String(value);
  }
  const setCookie = received['set-cookie'];
  if (typeof setCookie === 'string') received['set-cookie'] = [setCookie];
  return received;
}

function injectInto(app: FastifyInstance, remoteAddress: string | undefined): Transport {
  return async ({ method, path, headers, payload, node }) => {
    if (node !== undefined) throw new Error('inject() reaches one app: a call cannot name a node');
    const res = await app.inject({ method, url: path, headers, payload, remoteAddress });
    return reply(res.statusCode, asReceived(res.headers), res.rawPayload);
  };
}

function fetchFrom(origin: string, clientIp: string | undefined): Transport {
  return async ({ method, path, headers, payload, node, signal }) => {
    // As the load balancer adds it (unless the call names its own); a node uses it only with
    // TRUST_PROXY.
    if (clientIp) headers['x-forwarded-for'] ??= clientIp;
    const res = await fetch(new URL(path, node ?? origin), {
      method,
      headers,
      body: typeof payload === 'string' ? payload : payload && new Uint8Array(payload),
      signal,
    });
    const received: IncomingHttpHeaders = {};
    res.headers.forEach((value, name) => {
      if (name !== 'set-cookie') received[name] = value;
    });
    const setCookie = res.headers.getSetCookie();
    if (setCookie.length > 0) received['set-cookie'] = setCookie;
    return reply(res.status, received, Buffer.from(await res.arrayBuffer()));
  };
}

/**
 * A browser on the site: keeps its cookies, sends the CSRF token on mutations (asked for once,
 * dropped when the csrf cookie is renewed) and, over HTTP, the page's Origin.
 * `TestClient.inject(app)` goes through Fastify's inject(); `TestClient.http(origin)` through
 * sockets to a listening app or, naming a node per call, to any node of a site.
 */
export class TestClient {
  readonly cookies = new Map<string, string>();
  private csrfToken: string | undefined;

  private constructor(
    private readonly transport: Transport,
    /** The client's address as the server sees it, when the test chose one. */
    readonly clientIp: string | undefined,
    /** The site's origin, sent as Origin as a page of the site would. */
    readonly origin: string | undefined,
  ) {}

  /** Over inject(); `remoteAddress` is the client's IP (inject's default is 127.0.0.1). */
  static inject(app: FastifyInstance, remoteAddress?: string): TestClient {
    return new TestClient(injectInto(app, remoteAddress), remoteAddress, undefined);
  }

  /**
   * Over HTTP to `origin` (the site's PUBLIC_ORIGIN or a listening app's address); `clientIp`
   * goes as X-Forwarded-For, as a load balancer adds it.
   */
  static http(origin: string, options: { clientIp?: string } = {}): TestClient {
    return new TestClient(fetchFrom(origin, options.clientIp), options.clientIp, origin);
  }

  async request(method: Method, path: string, options: RequestOptions = {}): Promise<Reply> {
    const headers: Record<string, string> = {};
    if (this.origin) headers.origin = this.origin;
    Object.assign(headers, options.headers);
    if (options.forwardedFor !== undefined) headers['x-forwarded-for'] = options.forwardedFor;
    let payload: string | Buffer | undefined;
    if (options.body instanceof Uint8Array) {
      payload = Buffer.from(options.body);
    } else if (options.body !== undefined) {
      headers['content-type'] ??= 'application/json';
      payload = typeof options.body === 'string' ? options.body : JSON.stringify(options.body);
    }
    if (method !== 'GET' && method !== 'HEAD' && options.csrf !== false) {
      headers['x-csrf-token'] ??= await this.token(options.node);
    }
    if (this.cookies.size > 0) headers.cookie = this.cookieHeader();
    const res = await this.transport({
      method,
      path,
      headers,
      payload,
      node: options.node,
      signal: options.signal,
    });
    for (const cookie of res.cookies) {
      if (cookie.maxAge === 0 || cookie.value === '') this.cookies.delete(cookie.name);
      else this.cookies.set(cookie.name, cookie.value);
      // Login, register and logout renew the csrf cookie; the site's client then drops its token.
      if (cookie.name.endsWith('csrf')) this.csrfToken = undefined;
    }
    return res;
  }

  /** The Cookie header this client sends. */
  cookieHeader(): string {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
  }

  /** The CSRF token, asked of `node` (or the client's origin) once, then sent to every node. */
  async token(node?: string): Promise<string> {
    if (!this.csrfToken) {
      const res = await this.request('GET', authPaths.csrfToken, { node });
      if (res.statusCode !== 200) throw new Error(`csrf-token: ${res.statusCode} ${res.body}`);
      this.csrfToken = res.json<{ csrfToken: string }>().csrfToken;
    }
    return this.csrfToken;
  }

  async register(
    username: string,
    password = 'password123',
    options: Pick<RequestOptions, 'node' | 'forwardedFor'> = {},
  ): Promise<{ id: number; username: string }> {
    const res = await this.request('POST', authPaths.register, {
      ...options,
      body: { username, password },
      csrf: false,
    });
    if (res.statusCode !== 201) throw new Error(`register failed: ${res.statusCode} ${res.body}`);
    return res.json<{ user: { id: number; username: string } }>().user;
  }

  async login(
    username: string,
    password = 'password123',
    options: Pick<RequestOptions, 'node' | 'forwardedFor'> = {},
  ): Promise<Reply> {
    return this.request('POST', authPaths.login, {
      ...options,
      body: { username, password },
      csrf: false,
    });
  }
}
