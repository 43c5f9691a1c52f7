import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { compressVariants, pickEncoding, precompressDir } from './precompress.ts';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'grind-precompress-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('precompressDir', () => {
  it('writes .br and .gz beside compressible files, once', () => {
    fs.mkdirSync(path.join(dir, 'assets'));
    const js = 'export const grind = "daily";\n'.repeat(200);
    fs.writeFileSync(path.join(dir, 'assets', 'app.js'), js);
    fs.writeFileSync(path.join(dir, 'tiny.css'), 'a{}');
    fs.writeFileSync(path.join(dir, 'og-image.png'), Buffer.alloc(4096));

    expect(precompressDir(dir)).toEqual({ written: 1, skipped: 0 });
    const br = fs.readFileSync(path.join(dir, 'assets', 'app.js.br'));
    const gz = fs.readFileSync(path.join(dir, 'assets', 'app.js.gz'));
    expect(brotliDecompressSync(br).toString()).toBe(js);
    expect(gunzipSync(gz).toString()).toBe(js);
    expect(br.length).toBeLessThan(js.length / 10);
    expect(fs.existsSync(path.join(dir, 'tiny.css.br'))).toBe(false);
    expect(fs.existsSync(path.join(dir, 'og-image.png.br'))).toBe(false);

    expect(precompressDir(dir)).toEqual({ written: 0, skipped: 0 });
  });

  it('redoes a file that changed after it was compressed', () => {
    const file = path.join(dir, 'assets', 'app.js');
    const later = new Date(Date.now() + 60_000);
    fs.writeFileSync(file, 'export const grind = "weekly";\n'.repeat(200));
    fs.utimesSync(file, later, later);
    expect(precompressDir(dir).written).toBe(1);
    expect(gunzipSync(fs.readFileSync(`${file}.gz`)).toString()).toContain('weekly');
  });
});

describe('compressVariants', () => {
  it('gives the same bytes back in every encoding', () => {
    const html = '<!doctype html><title>Daily Grind</title>'.repeat(50);
    const v = compressVariants(html);
    expect(v.identity.toString()).toBe(html);
    expect(brotliDecompressSync(v.br).toString()).toBe(html);
    expect(gunzipSync(v.gzip).toString()).toBe(html);
  });
});

describe('pickEncoding', () => {
  // Brotli first, then gzip, and a refusal (q=0) honoured.
  it.each([
    ['gzip, deflate, br, zstd', 'br'],
    ['gzip, deflate', 'gzip'],
    ['br;q=0, gzip;q=0.8', 'gzip'],
    ['br;q=0.0, gzip;q=0', 'identity'],
    [undefined, 'identity'],
    ['', 'identity'],
    ['identity', 'identity'],
  ])('answers Accept-Encoding %j with %s', (header, encoding) => {
    expect(pickEncoding(header)).toBe(encoding);
  });
});
