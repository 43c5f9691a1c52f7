import type { Endpoint, EndpointInput, EndpointResponse } from '#shared/api/endpoint.ts';
import { authPaths, pathTo } from '#shared/api/paths.ts';
import { onUserChange } from './session.ts';
import { ApiError, readJson, throwIfResNotOk } from './api-client.ts';

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

/** Whether a refusal is the CSRF check's (a missing or stale token), by its code. */
async function refusedForCsrf(res: Response): Promise<boolean> {
  if (res.status !== 403) return false;
  return new ApiError(res.status, await res.clone().text(), res.statusText).code === 'CSRF';
}

/**
 * A write as the server's rules want it (src/server/security/csrf.ts): credentials, a JSON body, the CSRF
 * token unless `csrf: false` (the endpoint's `csrfExempt`), one retry with a fresh token when
 * the server says the token was stale. Callers go through `callEndpoint` (below).
 */
export async function apiRequest(
  method: WriteMethod | Lowercase<WriteMethod>,
  url: string,
  data?: unknown,
  options: { csrf?: boolean } = {},
): Promise<Response> {
  const verb = method.toUpperCase();
  const mutating = MUTATING.has(verb);
  const needsToken = mutating && (options.csrf ?? true);
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
  if (needsToken && (await refusedForCsrf(res))) {
    cachedCsrfToken = null;
    try {
      headers['X-CSRF-Token'] = await getCsrfToken();
    } catch {
      throw new Error('CSRF token validation failed');
    }
    res = await send();
    if (await refusedForCsrf(res)) throw new Error('CSRF token validation failed');
  }
  await throwIfResNotOk(res);
  return res;
}

/** The address of a call: the endpoint's path with its params filled in, then its query. */
export function endpointUrl<E extends Endpoint>(endpoint: E, input: EndpointInput<E>): string {
  const path = input.params
    ? pathTo(endpoint.path, input.params as Record<string, string | number>)
    : endpoint.path;
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries((input.query ?? {}) as Record<string, unknown>)) {
    if (value !== undefined && value !== null) query.set(name, String(value));
  }
  const search = query.toString();
  return search ? `${path}?${search}` : path;
}

/**
 * The one way the client calls an endpoint: the input typed by the endpoint (a body that does
 * not match its schema does not compile), the CSRF token unless the endpoint is exempt, the
 * answer checked against the endpoint's response schema. A refusal throws ApiError.
 */
export async function callEndpoint<E extends Endpoint>(
  endpoint: E,
  ...[input]: Record<never, never> extends EndpointInput<E>
    ? [input?: EndpointInput<E>]
    : [input: EndpointInput<E>]
): Promise<EndpointResponse<E>> {
  const given = (input ?? {}) as EndpointInput<E>;
  const url = endpointUrl(endpoint, given);
  const body =
    endpoint.method === 'GET'
      ? await readJson(url, 'throw')
      : await (
          await apiRequest(endpoint.method, url, given.body, { csrf: !endpoint.csrfExempt })
        ).json();
  return endpoint.response.parse(body) as EndpointResponse<E>;
}
