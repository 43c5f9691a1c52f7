import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { clearCookie, registerCookies, setCookie } from './cookies.ts';

async function app() {
  const server = Fastify({ logger: false });
  registerCookies(server);
  server.get('/echo', async (request) => ({ cookies: { ...request.cookies } }));
  server.get('/set-two', async (_request, reply) => {
    setCookie(reply, 'a', '1', { httpOnly: true, path: '/', maxAge: 60 });
    clearCookie(reply, 'b', { path: '/' });
    return { ok: true };
  });
  await server.ready();
  return server;
}

describe('cookies', () => {
  it("reads the request's cookies, and shrugs off a malformed header", async () => {
    const server = await app();
    const read = (cookie: string) => server.inject({ url: '/echo', headers: { cookie } }).then((r) => r.json());
    expect(await read('sid=abc; csrf=x%20y')).toEqual({ cookies: { sid: 'abc', csrf: 'x y' } });
    expect(await read(';;=;__proto__=1; ok=2')).toMatchObject({ cookies: { ok: '2' } });
    expect((await server.inject({ url: '/echo' })).json()).toEqual({ cookies: {} });
    await server.close();
  });

  it('sends every cookie set on one answer, Lax by default; clearing expires it', async () => {
    const server = await app();
    const res = await server.inject({ url: '/set-two' });
    const lines = res.headers['set-cookie'];
    expect(lines).toEqual([
      'a=1; Max-Age=60; Path=/; HttpOnly; SameSite=Lax',
      'b=; Max-Age=0; Path=/; Expires=Thu, 01 Jan 1970 00:00:00 GMT; SameSite=Lax',
    ]);
    await server.close();
  });
});
