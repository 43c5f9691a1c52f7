import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { suiteApp } from '#test-support/test-app.ts';
import { databaseKinds } from '#test-support/test-database.ts';
import { sitePaths } from '#shared/api/paths.ts';
import { scratchClientDist } from '#test-support/scratch.ts';

const root = path.resolve(import.meta.dirname, '../../..');
const { dir, distDir, remove } = scratchClientDist('grind-site-');
const siteFile = path.join(dir, 'site.json');
const ADDRESS = 'So11111111111111111111111111111111111111112';

beforeAll(() => {
  fs.mkdirSync(path.join(distDir, 'assets'), { recursive: true });
  fs.writeFileSync(
    path.join(distDir, 'assets', 'app-1234.js'),
    'console.log("grind");\n'.repeat(500),
  );
  fs.writeFileSync(siteFile, JSON.stringify({ brand: 'Night <Shift>', contractAddress: ADDRESS }));
});
afterAll(remove);

describe.each(databaseKinds)('site on %s', (kind) => {
  const t = suiteApp(kind, {
    clientDistDir: distDir,
    siteConfigFile: siteFile,
    publicOrigin: 'https://grind.example',
  });

  it('serves every page with the operator config and its identity tags', async () => {
    for (const url of ['/', '/shop', '/no-such-page']) {
      const res = await t.app.inject({ method: 'GET', url });
      expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(res.body).toContain(
        '<title>Night &lt;Shift&gt; ($GRIND) – Celebrating the Daily Grind</title>',
      );
      expect(res.body).toContain(
        '<meta property="og:image" content="https://grind.example/og-image.png" />',
      );
      const json = /<script id="site-config" type="application\/json">(.*?)<\/script>/.exec(
        res.body,
      )?.[1];
      const site = JSON.parse(json!) as {
        brand: string;
        contractAddress: string;
        links: { solscan: string };
      };
      expect(site.brand).toBe('Night <Shift>');
      expect(site.contractAddress).toBe(ADDRESS);
      expect(site.links.solscan).toBe(`https://solscan.io/token/${ADDRESS}`);
    }
  });

  it('answers compressed when the browser accepts it', async () => {
    const page = await t.app.inject({
      method: 'GET',
      url: '/',
      headers: { 'accept-encoding': 'gzip, br' },
    });
    expect(page.headers['content-encoding']).toBe('br');
    expect(page.headers.vary).toMatch(/accept-encoding/i);
    expect(brotliDecompressSync(page.rawPayload).toString()).toContain('<script id="site-config"');

    const script = await t.app.inject({
      method: 'GET',
      url: '/assets/app-1234.js',
      headers: { 'accept-encoding': 'gzip' },
    });
    expect(script.statusCode).toBe(200);
    expect(script.headers['content-encoding']).toBe('gzip');
    expect(script.headers['content-type']).toMatch(/javascript/);
    expect(script.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(gunzipSync(script.rawPayload).toString()).toBe('console.log("grind");\n'.repeat(500));

    const plain = await t.app.inject({ method: 'GET', url: '/assets/app-1234.js' });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe('console.log("grind");\n'.repeat(500));
  });

  it('tells a browser that revisits a page it has that the page has not changed', async () => {
    const first = await t.app.inject({
      method: 'GET',
      url: '/',
      headers: { 'accept-encoding': 'br' },
    });
    const etag = first.headers.etag as string;
    expect(etag).toMatch(/^W\/"[\w-]+"$/);
    expect(first.headers['cache-control']).toBe('no-cache');
    // One page, one tag, whatever the encoding.
    expect((await t.app.inject({ method: 'GET', url: '/' })).headers.etag).toBe(etag);

    for (const ifNoneMatch of [etag, etag.slice(2), `"other", ${etag}`, '*']) {
      const again = await t.app.inject({
        method: 'GET',
        url: '/',
        headers: { 'if-none-match': ifNoneMatch, 'accept-encoding': 'br' },
      });
      expect(again.statusCode).toBe(304);
      expect(again.rawPayload.length).toBe(0);
      expect(again.headers.etag).toBe(etag);
    }
    const changed = await t.app.inject({
      method: 'GET',
      url: '/',
      headers: { 'if-none-match': 'W/"an-older-page"' },
    });
    expect(changed.statusCode).toBe(200);
    expect(changed.body).toContain('<script id="site-config"');
    // The 404 page is never "not modified": its status is the answer.
    const missing = await t.app.inject({
      method: 'GET',
      url: '/no-such-page',
      headers: { 'if-none-match': '*' },
    });
    expect(missing.statusCode).toBe(404);
    expect(missing.headers.etag).toBeUndefined();
  });

  it('never serves the raw template', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/index.html' });
    expect(res.statusCode).toBe(404);
    expect(res.body).not.toContain('site-meta');
  });

  it('tells the page the server time, uncached', async () => {
    const res = await t.app.inject({ method: 'GET', url: sitePaths.time });
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.json()).toEqual({ now: t.clock.now() });
    t.clock.advance(1234);
    expect((await t.app.inject({ method: 'GET', url: sitePaths.time })).json()).toEqual({
      now: t.clock.now(),
    });
  });
});

describe('a bad SITE_CONFIG', () => {
  it('stops the real server at start with one line', () => {
    const bad = path.join(dir, 'bad.json');
    fs.writeFileSync(bad, JSON.stringify({ ticker: 'grind' }));
    const result = spawnSync(process.execPath, ['scripts/server.mjs'], {
      cwd: root,
      env: {
        ...process.env,
        SITE_CONFIG: bad,
        DATA_DIR: path.join(dir, 'data'),
        PORT: '0',
        CLIENT_DIST_DIR: distDir,
      },
      encoding: 'utf8',
      timeout: 30_000,
    });
    expect(result.status).toBe(1);
    expect(result.stderr.trim()).toBe(
      `Invalid SITE_CONFIG (${bad}): ticker: must look like "$GRIND"`,
    );
    expect(fs.existsSync(path.join(dir, 'data', 'app.db'))).toBe(false);
  });
});
