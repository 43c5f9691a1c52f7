import type { z } from 'zod';
import { authPaths, CSRF_EXEMPT_PATHS } from '#shared/api/paths.ts';
import { onUserChange } from './session.ts';
import { throwIfResNotOk } from './api-client.ts';

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

// The server binds the token to the session: a login or a logout needs a new one.
onUserChange(resetCsrfToken);

type WriteMethod = 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/**
 * The one way the client changes things on the server (spec section 7's request rules). Reads
 * go through `apiGet` or the query client's default query function.
 */
export async function apiRequest(
  method: WriteMethod | Lowercase<WriteMethod>,
  url: string,
  data?: unknown,
  options: { csrf?: boolean } = {},
): Promise<Response> {
  const verb = method.toUpperCase();
  const mutating = MUTATING.has(verb);
  const needsToken =
    mutating && (options.csrf ?? !CSRF_EXEMPT_PATHS.includes(url.split('?', 1)[0]!));
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
