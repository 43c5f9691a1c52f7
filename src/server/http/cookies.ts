import { parseCookie, stringifySetCookie, type Cookies, type SerializeOptions } from 'cookie';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

declare module 'fastify' {
  interface FastifyRequest {
    /** The request's cookies, parsed the first time a handler asks. */
    readonly cookies: Cookies;
  }
}

const parsed = Symbol('parsed cookies');
type WithParsed = FastifyRequest & { [parsed]: Cookies | null };

/**
 * Cookies without per-request hooks: most answers (cached reads, files) never touch a cookie,
 * yet @fastify/cookie parsed them on every request and ran an onSend hook on every answer.
 * Parsing and writing are the `cookie` library's.
 */
export function registerCookies(app: FastifyInstance): void {
  app.decorateRequest(parsed, null);
  app.decorateRequest('cookies', {
    getter() {
      const request = this as WithParsed;
      return (request[parsed] ??= parseCookie(request.headers.cookie ?? ''));
    },
  });
}

/** Adds a Set-Cookie line to the answer; SameSite is Lax unless the options say otherwise. */
export function setCookie(
  reply: FastifyReply,
  name: string,
  value: string,
  options: SerializeOptions,
): void {
  reply.header('set-cookie', stringifySetCookie(name, value, { sameSite: 'lax', ...options }));
}

/** Tells the browser to forget a cookie set with these options. */
export function clearCookie(reply: FastifyReply, name: string, options: SerializeOptions): void {
  setCookie(reply, name, '', { ...options, maxAge: 0, expires: new Date(0) });
}
