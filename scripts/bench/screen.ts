/**
 * npm run bench:screen (issue 43, docs/decisions/027-raid-day.md): how fast the shipped NSFW
 * classifier screens images on this machine, and what it adds to an upload. Prints images
 * screened per second (the classifier thread alone, one at a time as the server runs it) and
 * the upload's p50/p95 (PUT /api/meme-images through the app, on SQLite) with screening and
 * without, interleaved so both see the same machine.
 */
import sharp from 'sharp';
import { classify, warmClassifier } from '#server/uploads/screening.ts';
import { createTestApp, uniqueName } from '#test-support/test-app.ts';
import { TestClient } from '#test-support/test-client.ts';
import { processedImage } from '#test-support/gallery.ts';

const IMAGES = Number(process.env.SCREEN_IMAGES_N ?? 60);
const UPLOADS = Number(process.env.SCREEN_UPLOADS_N ?? 40);

/** A meme-sized JPEG no other call drew: gradients and blocks from a seed. */
async function memeLike(seed: number): Promise<Buffer> {
  const w = 800;
  const h = 600;
  const pixels = Buffer.alloc(w * h * 3);
  let state = (seed * 2654435761) >>> 0;
  const next = () => {
    state = (Math.imul(state ^ (state >>> 15), 0x2c1b3c6d) + 0x6d2b79f5) >>> 0;
    return state >>> 24;
  };
  const cells = Array.from({ length: 48 }, () => [next(), next(), next()]);
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const c = cells[Math.floor((y * 6) / h) * 8 + Math.floor((x * 8) / w)]!;
      const o = (y * w + x) * 3;
      pixels[o] = (c[0]! + x / 8) & 255;
      pixels[o + 1] = (c[1]! + y / 8) & 255;
      pixels[o + 2] = c[2]!;
    }
  }
  return sharp(pixels, { raw: { width: w, height: h, channels: 3 } })
    .jpeg({ quality: 85 })
    .toBuffer();
}

const percentile = (ms: number[], p: number) => {
  const sorted = [...ms].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
};

const images = await Promise.all(Array.from({ length: IMAGES }, (_, i) => memeLike(i + 1)));
const loadStart = performance.now();
await warmClassifier();
const loadMs = performance.now() - loadStart;
const start = performance.now();
for (const image of images) await classify(image);
const perSecond = IMAGES / ((performance.now() - start) / 1000);

const apps = {
  without: await createTestApp('sqlite', { screening: { enabled: false, holdThreshold: 0.7 } }),
  with: await createTestApp('sqlite', { screening: { enabled: true, holdThreshold: 0.7 } }),
};
const times: Record<keyof typeof apps, number[]> = { without: [], with: [] };
const members = {
  without: TestClient.inject(apps.without.app),
  with: TestClient.inject(apps.with.app),
};
for (const kind of ['without', 'with'] as const) {
  await members[kind].register(uniqueName('bench'));
}
for (let i = 0; i < UPLOADS; i++) {
  // Upload URLs are 30 a member per 10 minutes (memes/limits.ts): the apps' clocks move on.
  if (i > 0 && i % 12 === 0) for (const a of Object.values(apps)) a.clock.advance(11 * 60_000);
  for (const kind of i % 2 === 0
    ? (['without', 'with'] as const)
    : (['with', 'without'] as const)) {
    const bytes = await memeLike(10_000 + i * 2 + (kind === 'with' ? 1 : 0));
    const t0 = performance.now();
    await processedImage(apps[kind].app, members[kind], bytes);
    times[kind].push(performance.now() - t0);
  }
}
await Promise.all(Object.values(apps).map((a) => a.close()));

console.log(`Classifier: nsfwjs MobileNetV2 (in the package) on TensorFlow.js WASM, one thread`);
console.log(`Model load in its thread: ${Math.round(loadMs)} ms (once per process)`);
console.log(`Images screened: ${perSecond.toFixed(1)} per second (${IMAGES} images, 800x600 JPEG)`);
console.log('Upload (upload URL, PUT, PUT /api/meme-images), SQLite, in process:');
for (const kind of ['without', 'with'] as const) {
  console.log(
    `  ${kind === 'with' ? 'with screening   ' : 'without screening'}  p50 ${percentile(times[kind], 50).toFixed(0)} ms  p95 ${percentile(times[kind], 95).toFixed(0)} ms  (${UPLOADS} uploads)`,
  );
}
process.exit(0);
