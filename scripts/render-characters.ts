// Renders every character to one PNG sheet, to look at the skins as a player sees them:
// the 96 px shop preview, the 30 px game sprite (also upscaled without smoothing, and tilted as
// in flight) on a light and a dark background. Usage: npx tsx scripts/render-characters.ts [out]

import { build } from 'esbuild';
import { chromium } from 'playwright-core';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../tests/chromium.ts';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const out = process.argv[2] ?? '/tmp/characters.png';

const bundle = await build({
  stdin: {
    contents: [
      "export { drawCharacter, drawCharacterPreview } from '#client/lib/character-art.ts';",
      "export { characters } from '#shared/characters.ts';",
    ].join('\n'),
    resolveDir: root,
    loader: 'ts',
  },
  bundle: true,
  write: false,
  format: 'iife',
  globalName: 'CharacterArt',
  target: 'es2022',
});
const code = bundle.outputFiles[0]?.text;
if (code === undefined) throw new Error('esbuild produced no output');

const browser = await chromium.launch({
  executablePath: CHROMIUM_PATH,
  args: CHROMIUM_ARGS,
});
try {
  const page = await browser.newPage({ deviceScaleFactor: 1 });
  await page.setContent('<!doctype html><body style="margin:0"><canvas id="sheet"></canvas>');
  await page.addScriptTag({ content: code });
  const { width, height } = await page.evaluate(() => {
    type Art = {
      drawCharacter: (
        ctx: CanvasRenderingContext2D,
        key: string,
        opts: { x: number; y: number; size: number; rotation?: number; timeMs?: number },
      ) => void;
      characters: ReadonlyArray<{ key: string; name: string; price: number }>;
    };
    const art = (window as unknown as { CharacterArt: Art }).CharacterArt;
    const col = 130;
    const sheetWidth = art.characters.length * col + 20;
    const sheetHeight = 420;
    const canvas = document.getElementById('sheet') as HTMLCanvasElement;
    canvas.width = sheetWidth;
    canvas.height = sheetHeight;
    const ctx = canvas.getContext('2d')!;
    ctx.fillStyle = '#f8fafc';
    ctx.fillRect(0, 0, sheetWidth, sheetHeight);
    ctx.fillStyle = '#1e293b';
    ctx.fillRect(0, 300, sheetWidth, 120);

    art.characters.forEach((c, i) => {
      const left = 10 + i * col;
      const cx = left + col / 2;
      ctx.fillStyle = '#0f172a';
      ctx.font = '11px sans-serif';
      ctx.textAlign = 'center';
      ctx.fillText(c.name.replace(' - Official Mascot', ''), cx, 14);
      ctx.fillText(`${c.key} · ${c.price}`, cx, 27);
      // Shop preview size.
      art.drawCharacter(ctx, c.key, { x: cx - 48, y: 34, size: 96, timeMs: 0 });
      // Game size, upright and tilted as when climbing and falling.
      art.drawCharacter(ctx, c.key, { x: cx - 55, y: 145, size: 30, timeMs: 300 });
      art.drawCharacter(ctx, c.key, { x: cx - 15, y: 145, size: 30, rotation: -0.4 });
      art.drawCharacter(ctx, c.key, { x: cx + 25, y: 145, size: 30, rotation: 0.7 });
      // The game sprite blown up 3x without smoothing, to judge its pixels.
      ctx.imageSmoothingEnabled = false;
      ctx.drawImage(canvas, cx - 55, 145, 30, 30, cx - 45, 190, 90, 90);
      ctx.imageSmoothingEnabled = true;
      // On a dark background, as in a night-time game.
      art.drawCharacter(ctx, c.key, { x: cx - 48, y: 312, size: 30, timeMs: 900 });
      art.drawCharacter(ctx, c.key, { x: cx - 8, y: 306, size: 48, timeMs: 1500 });
      art.drawCharacter(ctx, c.key, { x: cx - 48, y: 355, size: 60, timeMs: 2100 });
    });
    return { width: sheetWidth, height: sheetHeight };
  });
  await page.locator('#sheet').screenshot({ path: out });
  console.log(`wrote ${out} (${width}x${height})`);
} finally {
  await browser.close();
}
