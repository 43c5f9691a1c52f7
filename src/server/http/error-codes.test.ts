import { describe, expect, it } from 'vitest';
import { suiteApp } from '#test-support/test-app.ts';
import { authPaths } from '#shared/api/paths.ts';

describe("Fastify's own refusals", () => {
  const t = suiteApp('sqlite');

  it.each([
    ['invalid JSON', { 'content-type': 'application/json' }, '{"username":', 400, 'BAD_REQUEST'],
    ['an empty JSON body', { 'content-type': 'application/json' }, '', 400, 'BAD_REQUEST'],
    [
      'an unknown media type',
      { 'content-type': 'application/x-www-form-urlencoded' },
      'a=b',
      415,
      'UNSUPPORTED_MEDIA_TYPE',
    ],
    ['text/plain', { 'content-type': 'text/plain' }, 'a=b', 415, 'UNSUPPORTED_MEDIA_TYPE'],
    [
      'a body over the limit',
      { 'content-type': 'application/json' },
      `{"username":"${'x'.repeat(70_000)}"}`,
      413,
      'PAYLOAD_TOO_LARGE',
    ],
  ])(
    'answer %s with our own code, never an FST_ERR_* name',
    async (_what, headers, payload, status, code) => {
      const res = await t.app.inject({ method: 'POST', url: authPaths.login, headers, payload });
      expect(res.statusCode).toBe(status);
      expect(res.json()).toEqual({ message: expect.any(String), code });
      expect(res.body).not.toContain('FST_');
    },
  );
});
