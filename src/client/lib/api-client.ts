import type { QueryFunction } from '@tanstack/react-query';
import type { z } from 'zod';
import { authPaths, CSRF_EXEMPT_PATHS } from '#shared/api/paths.ts';

/**
 * A non-OK answer. `message` keeps the spec's "<status>: <body or status text>"; `status` and
 * `serverMessage` (the JSON body's message) are what the UI shows.
 */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly bodyText: string,
    statusText: string,
  ) {
    super(`${status}: ${bodyText || statusText}`);
    this.name = 'ApiError';
  }

  get serverMessage(): string | undefined {
    // Checked by hand: this module is on the first load, which stays free of zod.
    try {
      const body: unknown = JSON.parse(this.bodyText);
      const message = (body as { message?: unknown } | null)?.message;
      return typeof message === 'string' ? message : undefined;
    } catch {
      return undefined;
    }
  }
}

/**
 * What a toast should say about an error: the server's own words when it gave any. An answer
 * without them has nothing a visitor could read ("500: {}"), so the toast's own text stands.
 */
export function errorMessage(error: unknown): string | undefined {
  if (error instanceof ApiError) return error.serverMessage;
  return error instanceof Error && error.message ? error.message : undefined;
}

const MUTATING = new Set(['POST', 'PUT', 'DELETE', 'PATCH']);

let cachedCsrfToken: string | null = null;

export function resetCsrfToken(): void {
  cachedCsrfToken = null;
}

async function getCsrfToken(): Promise<string> {
  if (cachedCsrfToken) return cachedCsrfToken;
  const res = await fetch(authPaths.csrfToken, { credentials: 'include' });
  if (!res.ok) throw new Error('Failed to fetch CSRF token');
  const body = (await res.json()) as { csrfToken?: unknown };
  if (typeof body.csrfToken !== 'string') throw new Error('Failed to fetch CSRF token');
  cachedCsrfToken = body.csrfToken;
  return cachedCsrfToken;
}

async function throwIfResNotOk(res: Response): Promise<void> {
  if (!res.ok) {
    const text = await res.text();
    throw new ApiError(res.status, text, res.statusText);
  }
}

type WriteMethod = 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/**
 * The one way the client changes things on the server (spec section 7's request rules). Reads
 * go through `apiGet` or the query client's default query function.
 */
export async function apiRequest(
  method: WriteMethod | Lowercase<WriteMethod>,
  url: string,
  data?: unknown,
): Promise<Response> {
  const verb = method.toUpperCase();
  const mutating = MUTATING.has(verb);
  const needsToken = mutating && !CSRF_EXEMPT_PATHS.includes(url.split('?', 1)[0]!);
  const headers: Record<string, string> = {};
  if (data !== undefined) headers['Content-Type'] = 'application/json';
  if (needsToken) {
    try {
      headers['X-CSRF-Token'] = await getCsrfToken();
    } catch (error) {
      console.warn('Could not get a CSRF token; sending the request without it', error);
    }
  }
  const send = () =>
    fetch(url, {
      method: verb,
      headers,
      body: data === undefined ? undefined : JSON.stringify(data),
      credentials: 'include',
    });

  let res = await send();
  if (mutating && res.status === 403) {
    const text = await res.clone().text();
    if (text.includes('CSRF') || text.includes('Forbidden')) {
      cachedCsrfToken = null;
      try {
        const token = await getCsrfToken();
        if (needsToken) headers['X-CSRF-Token'] = token;
      } catch {
        throw new Error('CSRF token validation failed');
      }
      res = await send();
      if (res.status === 403 && (await res.clone().text()).includes('CSRF')) {
        throw new Error('CSRF token validation failed');
      }
    }
  }
  await throwIfResNotOk(res);
  return res;
}

/** apiRequest, then the JSON answer checked against the shared contract. */
export async function apiJson<T extends z.ZodType>(
  method: WriteMethod,
  url: string,
  schema: T,
  data?: unknown,
): Promise<z.infer<T>> {
  const res = await apiRequest(method, url, data);
  return schema.parse(await res.json());
}

export type UnauthorizedBehavior = 'returnNull' | 'throw';

/**
 * The one place the client reads from the server (spec section 7): GET with credentials, JSON
 * back; a non-OK answer throws ApiError, a 401 gives null when `on401` says so. Callers use
 * `apiGet` (answer checked against the contract) or the query client's default query function.
 */
async function readJson(url: string, on401: UnauthorizedBehavior): Promise<unknown> {
  const res = await fetch(url, { credentials: 'include' });
  if (on401 === 'returnNull' && res.status === 401) return null;
  await throwIfResNotOk(res);
  return res.json();
}

/** A read whose answer is checked against the shared contract. */
export async function apiGet<T extends z.ZodType>(url: string, schema: T): Promise<z.infer<T>> {
  return schema.parse(await readJson(url, 'throw'));
}

/** The same read, with the answer's headers (a list's next page comes in its Link header). */
export async function apiGetWithHeaders<T extends z.ZodType>(
  url: string,
  schema: T,
): Promise<{ data: z.infer<T>; headers: Headers }> {
  const res = await fetch(url, { credentials: 'include' });
  await throwIfResNotOk(res);
  return { data: schema.parse(await res.json()), headers: res.headers };
}

/**
 * Default reads: GET the query key joined with "/", JSON back unchecked (the first load carries
 * no zod, decision 002); a 401 throws unless told otherwise.
 */
export function getQueryFn<T>(options: { on401: UnauthorizedBehavior }): QueryFunction<T | null> {
  return async ({ queryKey }) => (await readJson(queryKey.join('/'), options.on401)) as T | null;
}
