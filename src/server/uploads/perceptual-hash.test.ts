import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import {
  hammingDistance,
  perceptualHash,
  phashOfPixels,
  SAME_PICTURE_MAX_DISTANCE,
} from './perceptual-hash.ts';

/** A seeded generator, so every run draws the same pictures. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const WIDTH = 640;
const HEIGHT = 480;

/** A meme-like picture: a gradient, shapes and a caption, all drawn from the seed. */
async function picture(seed: number): Promise<Buffer> {
  const r = random(seed);
  const colour = () =>
    `rgb(${Math.floor(r() * 256)},${Math.floor(r() * 256)},${Math.floor(r() * 256)})`;
  const shapes: string[] = [];
  for (let i = 0; i < 6 + Math.floor(r() * 10); i++) {
    const x = Math.floor(r() * WIDTH);
    const y = Math.floor(r() * HEIGHT);
    shapes.push(
      r() < 0.5
        ? `<circle cx="${x}" cy="${y}" r="${20 + Math.floor(r() * 140)}" fill="${colour()}"/>`
        : `<rect x="${x - 100}" y="${y - 60}" width="${40 + Math.floor(r() * 260)}" height="${30 + Math.floor(r() * 200)}" fill="${colour()}" transform="rotate(${Math.floor(r() * 90)} ${x} ${y})"/>`,
    );
  }
  const words = ['MONDAY', 'COFFEE', 'DEADLINE', 'MEETING', 'GRIND', 'BOSS', 'EMAIL', 'FRIDAY'];
  const caption = `${words[Math.floor(r() * words.length)]} ${words[Math.floor(r() * words.length)]}`;
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${HEIGHT}">
    <defs><linearGradient id="g" x1="0" y1="0" x2="${r().toFixed(2)}" y2="1">
      <stop offset="0" stop-color="${colour()}"/><stop offset="1" stop-color="${colour()}"/>
    </linearGradient></defs>
    <rect width="100%" height="100%" fill="url(#g)"/>
    ${shapes.join('\n')}
    <text x="50%" y="${r() < 0.5 ? 60 : 440}" font-size="48" font-family="sans-serif" font-weight="bold"
      fill="white" stroke="black" stroke-width="2" text-anchor="middle">${caption}</text>
  </svg>`;
  return sharp(Buffer.from(svg)).png().toBuffer();
}

/** The second frame of every GIF below, drawn once. */
let otherFrame: Promise<Buffer> | undefined;

/** The alterations a repost goes through, each made from the original PNG. */
const alterations: Record<string, (png: Buffer, seed: number) => Promise<Buffer>> = {
  'resized to 50%': (png) =>
    sharp(png)
      .resize(WIDTH / 2, HEIGHT / 2)
      .png()
      .toBuffer(),
  'JPEG quality 60': (png) => sharp(png).jpeg({ quality: 60 }).toBuffer(),
  'cropped by 5%': (png, seed) => {
    // 5 % off the width and the height, split between the edges as the seed says.
    const r = random(seed * 7 + 1);
    const cutX = Math.round(WIDTH * 0.05);
    const cutY = Math.round(HEIGHT * 0.05);
    const left = Math.floor(r() * (cutX + 1));
    const top = Math.floor(r() * (cutY + 1));
    return sharp(png)
      .extract({ left, top, width: WIDTH - cutX, height: HEIGHT - cutY })
      .png()
      .toBuffer();
  },
  "a GIF's first frame": async (png) => {
    // A two-frame animation whose first frame is the picture; the second is something else.
    const other = await (otherFrame ??= picture(999_999).then((p) => sharp(p).raw().toBuffer()));
    const first = await sharp(png).ensureAlpha().raw().toBuffer();
    const second = await sharp(other, { raw: { width: WIDTH, height: HEIGHT, channels: 3 } })
      .ensureAlpha()
      .raw()
      .toBuffer();
    return sharp(Buffer.concat([first, second]), {
      raw: { width: WIDTH, height: HEIGHT * 2, channels: 4, pageHeight: HEIGHT },
    })
      .gif()
      .toBuffer();
  },
};

const PICTURES = 40;

describe('perceptual hash', () => {
  it('hashes pixels into 64 bits and measures distance in bits', () => {
    const flat = new Uint8Array(32 * 32).fill(128);
    const ramp = Uint8Array.from({ length: 32 * 32 }, (_, i) => (i % 32) * 8);
    expect(phashOfPixels(ramp)).toMatch(/^[0-9a-f]{16}$/);
    expect(phashOfPixels(ramp)).not.toBe(phashOfPixels(flat));
    expect(hammingDistance('0000000000000000', 'ffffffffffffffff')).toBe(64);
    expect(hammingDistance('00000000000000f0', '0000000000000010')).toBe(3);
    expect(() => phashOfPixels(new Uint8Array(10))).toThrow();
  });

  it('catches altered copies and keeps distinct pictures apart (prints the rates)', async () => {
    const originals = await Promise.all(Array.from({ length: PICTURES }, (_, i) => picture(i + 1)));
    const hashes = await Promise.all(originals.map((png) => perceptualHash(png)));

    const caught: Record<string, number> = {};
    const worst: Record<string, number> = {};
    for (const [name, alter] of Object.entries(alterations)) {
      caught[name] = 0;
      worst[name] = 0;
      for (let i = 0; i < PICTURES; i++) {
        const copy = await perceptualHash(await alter(originals[i]!, i + 1));
        const distance = hammingDistance(copy, hashes[i]!);
        worst[name] = Math.max(worst[name]!, distance);
        if (distance <= SAME_PICTURE_MAX_DISTANCE) caught[name]!++;
      }
    }
    let pairs = 0;
    let falseMatches = 0;
    let closest = 64;
    for (let i = 0; i < PICTURES; i++) {
      for (let j = i + 1; j < PICTURES; j++) {
        const distance = hammingDistance(hashes[i]!, hashes[j]!);
        closest = Math.min(closest, distance);
        pairs++;
        if (distance <= SAME_PICTURE_MAX_DISTANCE) falseMatches++;
      }
    }
    const total = Object.values(caught).reduce((a, b) => a + b, 0);
    const copies = PICTURES * Object.keys(alterations).length;
    const lines = [
      `perceptual hash, threshold ${SAME_PICTURE_MAX_DISTANCE} of 64 bits:`,
      ...Object.keys(alterations).map(
        (name) =>
          `  ${name.padEnd(20)} caught ${caught[name]}/${PICTURES} (largest distance ${worst[name]})`,
      ),
      `  catch rate ${total}/${copies} = ${((100 * total) / copies).toFixed(1)}%`,
      `  false matches ${falseMatches}/${pairs} distinct pairs = ${((100 * falseMatches) / pairs).toFixed(2)}% (closest pair ${closest} bits apart)`,
    ];
    console.log(lines.join('\n'));
    expect(total / copies).toBeGreaterThanOrEqual(0.95);
    expect(falseMatches).toBe(0);
  }, 120_000);
});
