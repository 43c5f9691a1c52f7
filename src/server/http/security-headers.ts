import type { IncomingMessage, ServerResponse } from 'node:http';
import helmet, { type HelmetOptions } from 'helmet';

export interface SecurityHeaders {
  /** For pages and files: helmet's full set, with the site's content security policy. */
  page: Record<string, string>;
  /**
   * For the JSON API: what OWASP's REST Security Cheat Sheet asks of API answers (nothing
   * framed, nothing sniffed, https only), plus no cross-origin reads. The page-only headers
   * would add half a kilobyte to every small answer and do nothing for JSON.
   */
  api: Record<string, string>;
}

/**
 * The headers are the same for every answer, so they are worked out once; running helmet's
 * middleware per request (as @fastify/helmet does) rebuilt them each time.
 */
export function securityHeaders(options: HelmetOptions): SecurityHeaders {
  const page = helmetHeaders(options);
  const hsts = page['strict-transport-security'];
  return {
    page,
    api: {
      'content-security-policy': "default-src 'none'; frame-ancestors 'none'",
      'x-content-type-options': 'nosniff',
      'x-frame-options': 'DENY',
      'cross-origin-resource-policy': 'same-origin',
      'referrer-policy': 'no-referrer',
      ...(hsts ? { 'strict-transport-security': hsts } : {}),
    },
  };
}

function helmetHeaders(options: HelmetOptions): Record<string, string> {
  const headers: Record<string, string> = {};
  const response = {
    setHeader(name: string, value: string | number) {
      headers[name.toLowerCase()] = String(value);
    },
    removeHeader(name: string) {
      delete headers[name.toLowerCase()];
    },
  };
  helmet(options)(
    {} as IncomingMessage,
    response as unknown as ServerResponse,
    (error?: unknown) => {
      if (error) throw error;
    },
  );
  return headers;
}
