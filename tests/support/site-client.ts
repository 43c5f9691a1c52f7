/**
 * One browser talking to a site of several nodes, as a load balancer would route it: each call
 * names the node that gets it, while cookies, the CSRF token, the page's Origin and the
 * client's address (X-Forwarded-For, as the balancer adds it) stay the same throughout.
 */
export class SiteClient {
  readonly cookies = new Map<string, string>();
  private csrfToken: string | undefined;

  constructor(
    /** The site's PUBLIC_ORIGIN: what a browser on the site sends as Origin. */
    readonly publicOrigin: string,
    /** The client's address as the balancer reports it; nodes need TRUST_PROXY to use it. */
    readonly clientIp?: string,
  ) {}

  async fetch(
    node: string,
    method: string,
    path: string,
    options: {
      json?: unknown;
      body?: BodyInit;
      headers?: Record<string, string>;
      /** Send the CSRF token (fetched from `node` on first use); default on for mutations. */
      csrf?: boolean;
      signal?: AbortSignal;
    } = {},
  ): Promise<Response> {
    const headers: Record<string, string> = { origin: this.publicOrigin, ...options.headers };
    if (this.clientIp) headers['x-forwarded-for'] = this.clientIp;
    let body: BodyInit | undefined = options.body;
    if (options.json !== undefined) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(options.json);
    }
    if (method !== 'GET' && method !== 'HEAD' && options.csrf !== false) {
      headers['x-csrf-token'] ??= await this.token(node);
    }
    if (this.cookies.size > 0) {
      headers.cookie = [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    }
    const res = await fetch(new URL(path, node), { method, headers, body, signal: options.signal });
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

  /** The CSRF token, asked of `node` the first time and then used on every node. */
  async token(node: string): Promise<string> {
    if (!this.csrfToken) {
      const res = await this.fetch(node, 'GET', '/api/csrf-token');
      if (res.status !== 200) throw new Error(`csrf-token: ${res.status} ${await res.text()}`);
      this.csrfToken = ((await res.json()) as { csrfToken: string }).csrfToken;
    }
    return this.csrfToken;
  }
}

/** The body as JSON with its status, for assertions that show both when they fail. */
export async function answer<T = Record<string, unknown>>(
  res: Response | Promise<Response>,
): Promise<{ status: number; body: T }> {
  const r = await res;
  const text = await r.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    // Not JSON (a page, an image): the text is the body.
  }
  return { status: r.status, body: body as T };
}
