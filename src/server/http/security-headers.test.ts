import { afterEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../test-support/test-app.ts';

describe('security headers', () => {
  let site: TestApp | undefined;
  afterEach(async () => {
    await site?.close();
    site = undefined;
  });

  it('go on every answer, errors and unknown paths included', async () => {
    site = await createTestApp('sqlite');
    const answers = await Promise.all([
      site.app.inject({ method: 'GET', url: '/healthz' }),
      site.app.inject({ method: 'GET', url: '/api/no-such-route' }),
      site.app.inject({ method: 'GET', url: '/api/memes?limit=abc' }),
      site.app.inject({
        method: 'POST',
        url: '/api/auth/login',
        headers: { 'content-type': 'application/json' },
        payload: '{',
      }),
    ]);
    expect(answers.map((a) => a.statusCode)).toEqual([200, 404, 400, 400]);
    for (const { headers } of answers) {
      const csp = String(headers['content-security-policy']);
      expect(csp).toContain("default-src 'self'");
      expect(csp).toContain("script-src 'self'");
      expect(csp).toContain('frame-src https://dexscreener.com');
      expect(csp).toContain("frame-ancestors 'none'");
      expect(headers['x-content-type-options']).toBe('nosniff');
      expect(headers['x-frame-options']).toBe('SAMEORIGIN');
      expect(headers['referrer-policy']).toBe('no-referrer');
      expect(headers['strict-transport-security']).toBeUndefined();
    }
  });

  it('ask for https only when the site is served over https', async () => {
    site = await createTestApp('sqlite', { publicOrigin: 'https://grind.example' });
    const res = await site.app.inject({ method: 'GET', url: '/healthz' });
    expect(res.headers['strict-transport-security']).toMatch(/^max-age=\d+; includeSubDomains$/);
  });
});
