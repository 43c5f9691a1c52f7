import type { QueryFunction } from '@tanstack/react-query';
import type { z } from 'zod';
import type { ErrorCode } from '#shared/api/error-codes.ts';

// Reads and the errors of every request. They are on the first load (the session check);
// writes, which only parts that load later make, are in api-call.ts.

/**
 * A non-OK answer. `message` keeps the spec's "<status>: <body or status text>"; `status`,
 * `code` and `serverMessage` (the body's, `apiErrorSchema` in src/shared/api/errors.ts) are what
 * the UI reads: the one place the client reads an error body. Checked by hand: this module is on
 * the first load, which stays free of zod and of the list of codes (decisions 002, 024); the
 * server sends only codes of ERROR_CODES.
 */
export class ApiError extends Error {
  declare readonly code?: ErrorCode;
  declare readonly serverMessage?: string;

  constructor(
    readonly status: number,
    readonly bodyText: string,
    statusText: string,
  ) {
    super(`${status}: ${bodyText || statusText}`);
    this.name = 'ApiError';
    try {
      const { message, code } = JSON.parse(bodyText) as { message?: unknown; code?: unknown };
      if (typeof message === 'string') (this as { serverMessage?: string }).serverMessage = message;
      if (typeof code === 'string') (this as { code?: ErrorCode }).code = code as ErrorCode;
    } catch {
      // Not JSON (or null): no message, no code.
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

export async function throwIfResNotOk(res: Response): Promise<void> {
  if (!res.ok) {
    const text = await res.text();
    throw new ApiError(res.status, text, res.statusText);
  }
}

export type UnauthorizedBehavior = 'returnNull' | 'throw';

/**
 * The one place the client reads from the server: GET with credentials, JSON
 * back, unchecked; a non-OK answer throws ApiError, a 401 gives null when `on401` says so.
 * Callers use `apiGet` (answer checked against the contract), the query client's default query
 * function, or, on the first load, this with their own check (the session, decision 002).
 */
export async function readJson(url: string, on401: UnauthorizedBehavior): Promise<unknown> {
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
