import sharp, { type SharpOptions } from 'sharp';

/**
 * A 64-bit perceptual hash (the classic DCT "pHash"): the picture shrunk to 32x32 grey, its
 * 2-D cosine transform, and one bit per low frequency (the 8x8 corner but the constant term)
 * saying whether it lies above their median. Resizing, re-encoding and small crops barely move
 * the low frequencies, so copies land a few bits apart while unrelated pictures differ in about
 * half. Computed with sharp, which already decodes every upload: the libraries that do this
 * (imghash, sharp-phash, blockhash-core) are a few dozen lines around the same steps, mostly
 * unmaintained, and some bring their own decoder.
 */

const SIZE = 32;
const LOW = 8;

/** cos((2x + 1) u pi / 2N) for the rows and columns of the transform, computed once. */
const COSINES: Float64Array[] = Array.from({ length: LOW }, (_, u) =>
  Float64Array.from({ length: SIZE }, (_, x) => Math.cos(((2 * x + 1) * u * Math.PI) / (2 * SIZE))),
);

/** The hash of 32x32 grey pixels (row-major), as 16 hex digits. */
export function phashOfPixels(pixels: Uint8Array): string {
  if (pixels.length !== SIZE * SIZE) throw new Error(`expected ${SIZE * SIZE} grey pixels`);
  // Only the 8x8 low-frequency corner is needed: rows first, then columns.
  const rows = new Float64Array(SIZE * LOW);
  for (let y = 0; y < SIZE; y++) {
    for (let u = 0; u < LOW; u++) {
      const cos = COSINES[u]!;
      let sum = 0;
      for (let x = 0; x < SIZE; x++) sum += pixels[y * SIZE + x]! * cos[x]!;
      rows[y * LOW + u] = sum;
    }
  }
  const coefficients: number[] = [];
  for (let v = 0; v < LOW; v++) {
    const cos = COSINES[v]!;
    for (let u = 0; u < LOW; u++) {
      let sum = 0;
      for (let y = 0; y < SIZE; y++) sum += rows[y * LOW + u]! * cos[y]!;
      coefficients.push(sum);
    }
  }
  // The constant term says only how bright the picture is; 63 bits plus a fixed 0 keep 64.
  const ac = coefficients.slice(1);
  const sorted = [...ac].sort((a, b) => a - b);
  const median = (sorted[31]! + sorted[32]!) / 2;
  let bits = 0n;
  for (const c of ac) bits = (bits << 1n) | (c > median ? 1n : 0n);
  return bits.toString(16).padStart(16, '0');
}

/**
 * The hash of an image file's first frame (a GIF's first frame, a photo as it is shown, EXIF
 * rotation applied). `options` are the caller's decode limits for untrusted input.
 */
export async function perceptualHash(input: Buffer, options: SharpOptions = {}): Promise<string> {
  const pixels = await sharp(input, { ...options, pages: 1, autoOrient: true })
    // Transparent areas count as white, as they show on most pages.
    .flatten({ background: '#ffffff' })
    .greyscale()
    .resize(SIZE, SIZE, { fit: 'fill', kernel: 'cubic' })
    .raw()
    .toBuffer();
  return phashOfPixels(pixels);
}

/** How many of the 64 bits differ. */
export function hammingDistance(a: string, b: string): number {
  let diff = BigInt(`0x${a}`) ^ BigInt(`0x${b}`);
  let count = 0;
  while (diff) {
    diff &= diff - 1n;
    count++;
  }
  return count;
}

/**
 * Hashes at most this many bits apart are the same picture. Chosen from the figures in
 * perceptual-hash.test.ts (altered copies vs distinct pictures), see decision 014.
 */
export const SAME_PICTURE_MAX_DISTANCE = 12;
