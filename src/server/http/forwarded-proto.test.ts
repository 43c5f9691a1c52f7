import { afterAll, describe, expect, it } from 'vitest';
import { seedMemes } from '#test-support/gallery.ts';
import { createTestApp, uniqueName, type TestApp } from '#test-support/test-app.ts';
import { TestClient } from '#test-support/test-client.ts';
import { databaseKinds } from '#test-support/test-database.ts';
import { scratchClientDist } from '#test-support/scratch.ts';

const { distDir, remove } = scratchClientDist('grind-proto-');
afterAll(remove);

const ogUrl = (html: string) => /<meta property="og:url" content="([^"]*)"/.exec(html)?.[1];

/** Issue 30, finding 9: a meme page's origin is never a forged protocol or host. */
describe.each(databaseKinds)('the origin of a meme page behind a proxy on %s', (kind) => {
  async function withMeme(
    publicOrigin: string | undefined,
    run: (t: TestApp, id: number) => Promise<void>,
  ) {
    const t = await createTestApp(kind, { clientDistDir: distDir, publicOrigin, trustProxy: 1 });
    try {
      const member = await TestClient.inject(t.app).register(uniqueName('proto'));
      const [id] = await seedMemes(t.app, 1, { userId: member.id });
      await run(t, id!);
    } finally {
      await t.close();
    }
  }

  it('refuses a forwarded protocol other than http or https, and never reflects it', async () => {
    await withMeme(undefined, async (t, id) => {
      const page = (proto: string) =>
        t.app.inject({
          method: 'GET',
          url: `/memes/${id}`,
          headers: { host: 'memes.test', 'x-forwarded-proto': proto },
        });
      for (const proto of ['javascript', 'https, javascript', 'data', 'HTTPS ']) {
        const res = await page(proto);
        expect(res.statusCode, proto).toBe(400);
        expect(res.json<{ code: string }>().code).toBe('BAD_FORWARDED_PROTO');
        expect(res.body).not.toContain('javascript:');
      }
      expect(ogUrl((await page('https')).body)).toBe(`https://memes.test/memes/${id}`);
      expect(ogUrl((await page('http')).body)).toBe(`http://memes.test/memes/${id}`);
    });
  });

  it('takes PUBLIC_ORIGIN, never the Host or forwarded headers, when it is set', async () => {
    await withMeme('https://grind.example', async (t, id) => {
      const res = await t.app.inject({
        method: 'GET',
        url: `/memes/${id}`,
        headers: {
          host: 'phish.example',
          'x-forwarded-host': 'phish.example',
          'x-forwarded-proto': 'http',
        },
      });
      expect(res.statusCode).toBe(200);
      expect(ogUrl(res.body)).toBe(`https://grind.example/memes/${id}`);
      expect(res.body).not.toContain('phish.example');
    });
  });
});
