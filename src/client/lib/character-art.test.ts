// Draws the skins in a real Chromium canvas and checks the pixels: every skin distinct at game
// size, inside its square, rotation and twinkle honoured, the context left as it was found, and
// each skin painted once per pixel size, then copied.

import { build } from 'esbuild';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { characterKeys } from '#shared/characters.ts';
import type * as ArtModule from './character-art.ts';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../../../tests/chromium.ts';

type Art = typeof ArtModule;
type PageWindow = { art: Art };

// The repository root, where esbuild resolves the package's `#client/*` imports.
const root = decodeURIComponent(new URL('../../..', import.meta.url).pathname);
let browser: Browser;
let page: Page;

beforeAll(async () => {
  const bundle = await build({
    stdin: {
      contents: "export * from '#client/lib/character-art.ts';",
      resolveDir: root,
      loader: 'ts',
    },
    bundle: true,
    write: false,
    format: 'iife',
    globalName: 'art',
    target: 'es2022',
  });
  browser = await chromium.launch({
    executablePath: CHROMIUM_PATH,
    args: CHROMIUM_ARGS,
  });
  page = await browser.newPage({ deviceScaleFactor: 2 });
  await page.setContent('<!doctype html><body></body>');
  await page.addScriptTag({ content: bundle.outputFiles[0]!.text });
});

afterAll(async () => {
  await browser?.close();
});

describe('drawCharacter', () => {
  it('draws all eleven skins at the game size, each clearly different from the others', async () => {
    const { coverage, closest } = await page.evaluate((keys) => {
      const { art } = window as unknown as PageWindow;
      const images = keys.map((key) => {
        const canvas = document.createElement('canvas');
        canvas.width = 30;
        canvas.height = 30;
        const ctx = canvas.getContext('2d')!;
        art.drawCharacter(ctx, key, { x: 0, y: 0, size: 30 });
        return ctx.getImageData(0, 0, 30, 30).data;
      });
      const coverage = images.map((px) => {
        let painted = 0;
        for (let i = 3; i < px.length; i += 4) if (px[i]! > 128) painted++;
        return painted / (30 * 30);
      });
      // Mean per-channel difference of the closest pair, 0..255.
      let closest = Infinity;
      for (let a = 0; a < images.length; a++) {
        for (let b = a + 1; b < images.length; b++) {
          let sum = 0;
          const pa = images[a]!;
          const pb = images[b]!;
          for (let i = 0; i < pa.length; i++) sum += Math.abs(pa[i]! - pb[i]!);
          closest = Math.min(closest, sum / pa.length);
        }
      }
      return { coverage, closest };
    }, characterKeys);

    for (const c of coverage) expect(c).toBeGreaterThan(0.35);
    expect(closest).toBeGreaterThan(8);
  });

  it('stays inside its square and leaves the context as it found it', async () => {
    const results = await page.evaluate((keys) => {
      const { art } = window as unknown as PageWindow;
      return keys.map((key) => {
        const canvas = document.createElement('canvas');
        canvas.width = 200;
        canvas.height = 200;
        const ctx = canvas.getContext('2d')!;
        ctx.fillStyle = '#123456';
        ctx.strokeStyle = '#654321';
        ctx.lineWidth = 7;
        ctx.globalAlpha = 0.9;
        art.drawCharacter(ctx, key, { x: 50, y: 50, size: 100, timeMs: 1234 });
        const t = ctx.getTransform();
        const state = {
          identity: t.a === 1 && t.b === 0 && t.c === 0 && t.d === 1 && t.e === 0 && t.f === 0,
          fillStyle: ctx.fillStyle,
          strokeStyle: ctx.strokeStyle,
          lineWidth: ctx.lineWidth,
          globalAlpha: Math.round(ctx.globalAlpha * 100) / 100,
        };
        const px = ctx.getImageData(0, 0, 200, 200).data;
        let outside = 0;
        let inside = 0;
        for (let y = 0; y < 200; y++) {
          for (let x = 0; x < 200; x++) {
            if (px[(y * 200 + x) * 4 + 3]! === 0) continue;
            // One pixel of slack for anti-aliased outlines on the edge.
            if (x < 49 || x > 150 || y < 49 || y > 150) outside++;
            else inside++;
          }
        }
        return { key, state, outside, inside };
      });
    }, characterKeys);

    for (const r of results) {
      expect(r.state, r.key).toEqual({
        identity: true,
        fillStyle: '#123456',
        strokeStyle: '#654321',
        lineWidth: 7,
        globalAlpha: 0.9,
      });
      expect(r.outside, r.key).toBe(0);
      expect(r.inside, r.key).toBeGreaterThan(3000);
    }
  });

  it('rotates around the centre of its square', async () => {
    const r = await page.evaluate(() => {
      const { art } = window as unknown as PageWindow;
      const render = (rotation: number) => {
        const canvas = document.createElement('canvas');
        canvas.width = 96;
        canvas.height = 96;
        const ctx = canvas.getContext('2d')!;
        art.drawCharacter(ctx, 'hardhat', { x: 0, y: 0, size: 96, rotation });
        return ctx.getImageData(0, 0, 96, 96).data;
      };
      const diff = (a: Uint8ClampedArray, b: Uint8ClampedArray) => {
        let sum = 0;
        for (let i = 0; i < a.length; i++) sum += Math.abs(a[i]! - b[i]!);
        return sum / a.length;
      };
      // Upside down, the yellow hat sits in the bottom half instead of the top half.
      const yellowRows = (px: Uint8ClampedArray) => {
        let top = 0;
        let bottom = 0;
        for (let i = 0; i < px.length; i += 4) {
          if (px[i]! > 200 && px[i + 1]! > 180 && px[i + 2]! < 80) {
            if (i / 4 / 96 < 48) top++;
            else bottom++;
          }
        }
        return { top, bottom };
      };
      const upright = render(0);
      return {
        quarter: diff(upright, render(Math.PI / 2)),
        fullTurn: diff(upright, render(Math.PI * 2)),
        upright: yellowRows(upright),
        flipped: yellowRows(render(Math.PI)),
      };
    });
    expect(r.quarter).toBeGreaterThan(10);
    expect(r.fullTurn).toBeLessThan(1);
    expect(r.upright.top).toBeGreaterThan(r.upright.bottom * 3);
    expect(r.flipped.bottom).toBeGreaterThan(r.flipped.top * 3);
  });

  it('twinkles the legendary sparkles over time, and only those', async () => {
    const r = await page.evaluate(() => {
      const { art } = window as unknown as PageWindow;
      const render = (key: 'pudge' | 'pilot', timeMs: number) => {
        const canvas = document.createElement('canvas');
        canvas.width = 96;
        canvas.height = 96;
        const ctx = canvas.getContext('2d')!;
        art.drawCharacter(ctx, key, { x: 0, y: 0, size: 96, timeMs });
        return Array.from(ctx.getImageData(0, 0, 96, 96).data);
      };
      const same = (a: number[], b: number[]) => a.every((v, i) => v === b[i]);
      return {
        pudgeChanges: !same(render('pudge', 0), render('pudge', 400)),
        pudgeRepeats: same(render('pudge', 250), render('pudge', 250)),
        pilotStill: same(render('pilot', 0), render('pilot', 400)),
      };
    });
    expect(r).toEqual({ pudgeChanges: true, pudgeRepeats: true, pilotStill: true });
  });

  it('paints each skin once per pixel size and copies that bitmap on every later draw', async () => {
    const r = await page.evaluate((keys) => {
      const { art } = window as unknown as PageWindow;
      const target = document.createElement('canvas').getContext('2d')!;
      let created = 0;
      const create = document.createElement.bind(document);
      document.createElement = ((name: string, options?: ElementCreationOptions) => {
        if (name === 'canvas') created++;
        return create(name, options);
      }) as typeof document.createElement;
      try {
        // Sizes no other test uses, so the cache starts cold for them.
        for (let frame = 0; frame < 50; frame++) {
          for (const key of keys) {
            art.drawCharacter(target, key, { x: frame, y: 3, size: 31, rotation: frame / 10 });
            art.drawCharacter(target, key, {
              x: 9,
              y: 9,
              size: 31,
              pixelRatio: 2,
              timeMs: frame * 16,
            });
          }
        }
      } finally {
        document.createElement = create;
      }
      return {
        created,
        same: art.characterBitmap('chef', 31) === art.characterBitmap('chef', 31),
        sizes: [art.characterBitmap('chef', 31).width, art.characterBitmap('chef', 62).width],
      };
    }, characterKeys);
    // Two sizes of eleven skins, plus Pudge's star at each size.
    expect(r.created).toBe(2 * characterKeys.length + 2);
    expect(r.same).toBe(true);
    expect(r.sizes).toEqual([31, 62]);
  });

  it('is cheap enough to draw every frame', async () => {
    const perDrawMs = await page.evaluate((keys) => {
      const { art } = window as unknown as PageWindow;
      const canvas = document.createElement('canvas');
      canvas.width = 700;
      canvas.height = 400;
      const ctx = canvas.getContext('2d')!;
      const opts = { x: 100, y: 200, size: 30, rotation: 0.3, timeMs: 0 };
      const rounds = 200;
      const start = performance.now();
      for (let i = 0; i < rounds; i++) {
        for (const key of keys) {
          opts.timeMs = i * 16;
          art.drawCharacter(ctx, key, opts);
        }
      }
      ctx.getImageData(0, 0, 1, 1); // flush the queued drawing into the measurement
      return (performance.now() - start) / (rounds * keys.length);
    }, characterKeys);
    console.info(`drawCharacter: ${perDrawMs.toFixed(4)} ms per call at 30 px`);
    // About 0.15 ms here, Pudge's sparkles included (0.37 ms when every draw ran the paths); the
    // bound only catches a pathological change (a blur, a per-call gradient, an image decode)
    // without failing on a 2-core machine that is busy elsewhere.
    expect(perDrawMs).toBeLessThan(5);
  });
});

describe('drawCharacterPreview', () => {
  it('sizes the backing store for the pixel ratio and centres the character', async () => {
    const r = await page.evaluate(() => {
      const { art } = window as unknown as PageWindow;
      const laidOut = document.createElement('canvas');
      laidOut.style.width = '120px';
      laidOut.style.height = '96px';
      document.body.append(laidOut);
      art.drawCharacterPreview(laidOut, 'scientist', 0);

      const detached = document.createElement('canvas');
      detached.width = 96;
      detached.height = 96;
      art.drawCharacterPreview(detached, 'pudge', 100);

      // Painted columns of the laid-out canvas: the 96 px square sits centred in 120 px.
      const ctx = laidOut.getContext('2d')!;
      const px = ctx.getImageData(0, 0, laidOut.width, laidOut.height).data;
      let minX = Infinity;
      let maxX = -Infinity;
      for (let i = 3; i < px.length; i += 4) {
        if (px[i]! === 0) continue;
        const x = ((i - 3) / 4) % laidOut.width;
        minX = Math.min(minX, x);
        maxX = Math.max(maxX, x);
      }
      return {
        laidOut: [laidOut.width, laidOut.height, laidOut.clientWidth, laidOut.clientHeight],
        detached: [detached.width, detached.height, detached.style.width, detached.style.height],
        centre: (minX + maxX) / 2 / devicePixelRatio,
        dpr: devicePixelRatio,
      };
    });
    expect(r.dpr).toBe(2);
    expect(r.laidOut).toEqual([240, 192, 120, 96]);
    expect(r.detached).toEqual([192, 192, '96px', '96px']);
    expect(Math.abs(r.centre - 60)).toBeLessThan(3);
  });
});
