import { afterEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '#test-support/test-app.ts';
import { authPaths, memePaths } from '#shared/api/paths.ts';

describe('security headers', () => {
  let site: TestApp | undefined;
  afterEach(async () => {
    await site?.close();
    site = undefined;
  });

  it("give pages the site's content security policy and helmet's other headers", async () => {
    site = await createTestApp('sqlite');
    for (const url of ['/healthz', '/no-such-page']) {
      const { headers } = await site.app.inject({ method: 'GET', url });
      const csp = String(headers['content-security-policy']);
      expect(csp).toContain("default-src 'self'");
      expect(csp).toContain("script-src 'self'");
      expect(csp).toContain('frame-src https://dexscreener.com');
      expect(csp).toContain("frame-ancestors 'none'");
      expect(headers['x-content-type-options']).toBe('nosniff');
      expect(headers['x-frame-options']).toBe('SAMEORIGIN');
      expect(headers['referrer-policy']).toBe('no-referrer');
      expect(headers['cross-origin-opener-policy']).toBe('same-origin');
      expect(headers['strict-transport-security']).toBeUndefined();
    }
  });

  it('give every API answer, errors included, the headers an API needs and no page policy', async () => {
    site = await createTestApp('sqlite');
    const answers = await Promise.all([
      site.app.inject({ method: 'GET', url: authPaths.csrfToken }),
      site.app.inject({ method: 'GET', url: '/api/no-such-route' }),
      site.app.inject({ method: 'GET', url: `${memePaths.list}?limit=abc` }),
      site.app.inject({
        method: 'POST',
        url: authPaths.login,
        headers: { 'content-type': 'application/json' },
        payload: '{',
      }),
    ]);
    expect(answers.map((a) => a.statusCode)).toEqual([200, 404, 400, 400]);
    for (const { headers } of answers) {
      expect(headers['content-security-policy']).toBe("default-src 'none'; frame-ancestors 'none'");
      expect(headers['x-content-type-options']).toBe('nosniff');
      expect(headers['x-frame-options']).toBe('DENY');
      expect(headers['cross-origin-resource-policy']).toBe('same-origin');
      expect(headers['content-type']).toMatch(/^application\/json/);
      expect(headers['x-request-id']).toBeTruthy();
    }
  });

  it('ask for https only when the site is served over https, on pages and API alike', async () => {
    site = await createTestApp('sqlite', { publicOrigin: 'https://grind.example' });
    for (const url of ['/healthz', authPaths.csrfToken]) {
      const res = await site.app.inject({ method: 'GET', url });
      expect(res.headers['strict-transport-security']).toMatch(/^max-age=\d+; includeSubDomains$/);
    }
  });
});
