import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { ApiError, apiGet, errorMessage, getQueryFn } from './api-client.ts';
import { apiRequest, resetCsrfToken } from './api-call.ts';
import { authPaths, memePaths, shopPaths, pathTo } from '#shared/api/paths.ts';
import { loginEndpoint, registerEndpoint } from '#shared/api/auth.ts';
import { submitScoreEndpoint } from '#shared/api/game.ts';

interface Call {
  url: string;
  method: string;
  headers: Record<string, string>;
  body: string | undefined;
  credentials: RequestCredentials | undefined;
}

/** A fetch that answers in order per URL and records what was sent. */
function fakeFetch(script: Record<string, Array<() => Response>>) {
  const calls: Call[] = [];
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init: RequestInit = {}) => {
    const url = String(input);
    calls.push({
      url,
      method: init.method ?? 'GET',
      headers: { ...(init.headers as Record<string, string> | undefined) },
      body: init.body as string | undefined,
      credentials: init.credentials,
    });
    const next = script[url]?.shift();
    if (!next) throw new Error(`unexpected fetch ${url}`);
    return next();
  });
  vi.stubGlobal('fetch', fetchMock);
  return calls;
}

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
const tokenAnswer = (token: string) => () => json({ csrfToken: token });

beforeEach(() => resetCsrfToken());
afterEach(() => vi.unstubAllGlobals());

describe('apiRequest', () => {
  it('fetches the CSRF token once with credentials and reuses it on mutating calls', async () => {
    const calls = fakeFetch({
      [authPaths.csrfToken]: [tokenAnswer('t1')],
      [memePaths.list]: [() => json({}), () => json({})],
    });
    await apiRequest('POST', memePaths.create, { title: 'x' });
    await apiRequest('DELETE', memePaths.list);
    expect(calls.filter((c) => c.url === authPaths.csrfToken)).toHaveLength(1);
    expect(calls[0]!.credentials).toBe('include');
    const posts = calls.filter((c) => c.url === memePaths.list);
    expect(posts.map((c) => c.headers['X-CSRF-Token'])).toEqual(['t1', 't1']);
    expect(posts.every((c) => c.credentials === 'include')).toBe(true);
  });

  it.each(['PUT', 'PATCH', 'DELETE', 'post'] as const)('sends the token on %s', async (method) => {
    const calls = fakeFetch({
      [authPaths.csrfToken]: [tokenAnswer('tok')],
      '/api/x': [() => json({})],
    });
    await apiRequest(method, '/api/x');
    expect(calls.at(-1)!.headers['X-CSRF-Token']).toBe('tok');
  });

  it.each([submitScoreEndpoint, registerEndpoint, loginEndpoint])(
    'sends no token to an endpoint declared csrfExempt ($path)',
    async (endpoint) => {
      expect(endpoint.csrfExempt).toBe(true);
      const calls = fakeFetch({ [endpoint.path]: [() => json({})] });
      await apiRequest('POST', endpoint.path, { a: 1 }, { csrf: !endpoint.csrfExempt });
      expect(calls).toHaveLength(1);
      expect(calls[0]!.headers['X-CSRF-Token']).toBeUndefined();
    },
  );

  it('sets a JSON content type only when there is a body', async () => {
    const calls = fakeFetch({
      [authPaths.csrfToken]: [tokenAnswer('t')],
      '/api/a': [() => json({}), () => json({})],
    });
    await apiRequest('POST', '/api/a', { n: 1 });
    await apiRequest('POST', '/api/a');
    expect(calls[1]!.headers['Content-Type']).toBe('application/json');
    expect(calls[1]!.body).toBe('{"n":1}');
    expect(calls[2]!.headers['Content-Type']).toBeUndefined();
    expect(calls[2]!.body).toBeUndefined();
  });

  it.each(['{"message":"CSRF token invalid","code":"CSRF"}', '{"message":"x","code":"CSRF"}'])(
    'on a 403 whose code is CSRF (%s), refetches the token and retries once',
    async (body) => {
      const calls = fakeFetch({
        [authPaths.csrfToken]: [tokenAnswer('old'), tokenAnswer('new')],
        '/api/a': [() => new Response(body, { status: 403 }), () => json({ ok: true })],
      });
      const res = await apiRequest('POST', '/api/a', {});
      expect(res.status).toBe(200);
      const sends = calls.filter((c) => c.url === '/api/a');
      expect(sends.map((c) => c.headers['X-CSRF-Token'])).toEqual(['old', 'new']);
    },
  );

  it.each([
    '{"message":"Not yours"}',
    '{"message":"Forbidden: cross-site request refused","code":"CROSS_SITE"}',
    'CSRF',
  ])('does not retry a 403 with another code or none (%s)', async (body) => {
    const calls = fakeFetch({
      [authPaths.csrfToken]: [tokenAnswer('t')],
      '/api/a': [() => new Response(body, { status: 403 })],
    });
    await expect(apiRequest('POST', '/api/a')).rejects.toThrow(`403: ${body}`);
    expect(calls.filter((c) => c.url === '/api/a')).toHaveLength(1);
  });

  it('fails with "CSRF token validation failed" when the retry is refused again', async () => {
    const calls = fakeFetch({
      [authPaths.csrfToken]: [tokenAnswer('a'), tokenAnswer('b')],
      '/api/a': [
        () => new Response('{"message":"CSRF token invalid","code":"CSRF"}', { status: 403 }),
        () => new Response('{"message":"CSRF token invalid","code":"CSRF"}', { status: 403 }),
      ],
    });
    await expect(apiRequest('POST', '/api/a')).rejects.toThrow('CSRF token validation failed');
    expect(calls.filter((c) => c.url === '/api/a')).toHaveLength(2);
  });

  it('fails with "CSRF token validation failed" when the fresh token cannot be fetched', async () => {
    fakeFetch({
      [authPaths.csrfToken]: [tokenAnswer('a'), () => new Response('down', { status: 500 })],
      '/api/a': [
        () => new Response('{"message":"CSRF token invalid","code":"CSRF"}', { status: 403 }),
      ],
    });
    await expect(apiRequest('POST', '/api/a')).rejects.toThrow('CSRF token validation failed');
  });

  it('logs a failed token fetch and sends the call without the header', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const calls = fakeFetch({
      [authPaths.csrfToken]: [() => new Response('nope', { status: 503 })],
      '/api/a': [() => json({ ok: true })],
    });
    await apiRequest('POST', '/api/a');
    expect(warn).toHaveBeenCalledWith(expect.any(String), new Error('Failed to fetch CSRF token'));
    expect(calls.at(-1)!.headers['X-CSRF-Token']).toBeUndefined();
    warn.mockRestore();
  });

  it('raises "<status>: <body>" errors carrying the status, the code and the server message', async () => {
    const body = { message: 'Invalid username or password', code: 'INVALID_CREDENTIALS' };
    fakeFetch({ [authPaths.login]: [() => json(body, 401)] });
    const error = await apiRequest('POST', authPaths.login, {}, { csrf: false }).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).message).toBe(`401: ${JSON.stringify(body)}`);
    expect((error as ApiError).status).toBe(401);
    expect((error as ApiError).code).toBe('INVALID_CREDENTIALS');
    expect((error as ApiError).serverMessage).toBe('Invalid username or password');
    expect(errorMessage(error)).toBe('Invalid username or password');
  });

  it('reads the code and message of a JSON body, and a body that is not JSON as none', () => {
    expect(new ApiError(409, '{"message":"m","code":7}', '').code).toBeUndefined();
    const notJson = new ApiError(500, 'Internal Server Error', '');
    expect([notJson.code, notJson.serverMessage]).toEqual([undefined, undefined]);
    const nullBody = new ApiError(500, 'null', '');
    expect([nullBody.code, nullBody.serverMessage]).toEqual([undefined, undefined]);
    expect(new ApiError(422, '{"code":"NAME_TAKEN"}', '').code).toBe('NAME_TAKEN');
  });

  it("leaves a toast's own text to an answer without a message of the server's", async () => {
    fakeFetch({
      '/api/a': [() => new Response('{}', { status: 500 })],
      '/api/b': [() => new Response('', { status: 401, statusText: 'Unauthorized' })],
    });
    for (const url of ['/api/a', '/api/b']) {
      const error = await apiGet(url, z.unknown()).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ApiError);
      expect(errorMessage(error)).toBeUndefined();
    }
    expect(errorMessage(new TypeError('Failed to fetch'))).toBe('Failed to fetch');
  });

  it('uses the status text when the body is empty', async () => {
    fakeFetch({ '/api/a': [() => new Response('', { status: 502, statusText: 'Bad Gateway' })] });
    await expect(apiGet('/api/a', z.unknown())).rejects.toThrow('502: Bad Gateway');
  });
});

describe('getQueryFn', () => {
  const run = (fn: ReturnType<typeof getQueryFn>, queryKey: readonly unknown[]) =>
    fn({ queryKey, signal: new AbortController().signal, meta: undefined } as never);

  it('GETs the query key joined with "/" with credentials and returns JSON', async () => {
    const calls = fakeFetch({ [pathTo(memePaths.one, { id: 5 })]: [() => json({ id: 5 })] });
    await expect(run(getQueryFn({ on401: 'throw' }), [memePaths.list, 5])).resolves.toEqual({
      id: 5,
    });
    expect(calls[0]!.credentials).toBe('include');
  });

  it('throws on 401 by default and returns null when told to', async () => {
    fakeFetch({
      [shopPaths.profile]: [() => json({ message: 'no' }, 401), () => json({ message: 'no' }, 401)],
    });
    await expect(run(getQueryFn({ on401: 'throw' }), [shopPaths.profile])).rejects.toThrow('401: ');
    await expect(run(getQueryFn({ on401: 'returnNull' }), [shopPaths.profile])).resolves.toBeNull();
  });
});

describe('apiGet', () => {
  it('GETs with credentials and no CSRF token, and checks the answer against the schema', async () => {
    const calls = fakeFetch({
      '/api/x': [() => json({ n: 1, extra: true }), () => json({ n: 'one' })],
    });
    const schema = z.object({ n: z.number() });
    await expect(apiGet('/api/x', schema)).resolves.toEqual({ n: 1 });
    await expect(apiGet('/api/x', schema)).rejects.toThrow();
    expect(calls.map((c) => [c.url, c.method, c.credentials, c.headers['X-CSRF-Token']])).toEqual([
      ['/api/x', 'GET', 'include', undefined],
      ['/api/x', 'GET', 'include', undefined],
    ]);
  });

  it('throws the status and body on a non-OK answer, 401 included', async () => {
    fakeFetch({ '/api/x': [() => json({ message: 'Sign in first' }, 401)] });
    const error = await apiGet('/api/x', z.unknown()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).message).toBe('401: {"message":"Sign in first"}');
  });
});
