import type { FastifyInstance } from 'fastify';
import sharp from 'sharp';
import type { Meme } from '#shared/api/memes.ts';
import { MEME_CATEGORY_VALUES } from '#shared/categories.ts';
import type { TestClient } from './test-app.ts';
import { insertMeme } from '#server/memes/repository.ts';

let colour = 0;
/** A small PNG of a colour no earlier call in this process used, so every upload is new. */
export async function distinctPng(width = 48, height = 32): Promise<Buffer> {
  colour += 1;
  return sharp({
    create: {
      width,
      height,
      channels: 3,
      background: { r: colour % 256, g: Math.floor(colour / 256) % 256, b: 200 },
    },
  })
    .png()
    .toBuffer();
}

/** Upload URL, PUT, processing: the objectPath the member may post (local store, via inject). */
export async function processedImage(
  app: FastifyInstance,
  member: TestClient,
  bytes?: Buffer,
): Promise<string> {
  const target = await member.request('POST', '/api/objects/upload');
  if (target.statusCode !== 200) throw new Error(`upload URL: ${target.statusCode} ${target.body}`);
  const { uploadURL } = target.json<{ uploadURL: string }>();
  const put = await app.inject({
    method: 'PUT',
    url: uploadURL,
    payload: bytes ?? (await distinctPng()),
    headers: { 'content-type': 'image/png' },
  });
  if (put.statusCode !== 200) throw new Error(`upload: ${put.statusCode} ${put.body}`);
  const processed = await member.request('PUT', '/api/meme-images', {
    body: { imageUrl: uploadURL },
  });
  if (processed.statusCode !== 200)
    throw new Error(`process: ${processed.statusCode} ${processed.body}`);
  return processed.json<{ objectPath: string }>().objectPath;
}

/** A meme posted through the whole member flow. */
export async function postMeme(
  app: FastifyInstance,
  member: TestClient,
  meme: { title?: string; category?: string; bytes?: Buffer } = {},
): Promise<Meme> {
  const imageUrl = await processedImage(app, member, meme.bytes);
  const res = await member.request('POST', '/api/memes', {
    body: {
      title: meme.title ?? 'Posted meme',
      category: meme.category ?? 'office-life',
      imageUrl,
    },
  });
  if (res.statusCode !== 201) throw new Error(`post: ${res.statusCode} ${res.body}`);
  return res.json<{ meme: Meme }>().meme;
}

/** Many memes straight into the table (paging and benchmarks need more than uploads give). */
export async function seedMemes(
  app: FastifyInstance,
  count: number,
  opts: { userId: number; now?: number; category?: (i: number) => string },
): Promise<number[]> {
  const ids: number[] = [];
  for (let i = 0; i < count; i++) {
    const hex = (n: number) => n.toString(16).padStart(64, '0');
    const row = await insertMeme(app.deps.db, {
      userId: opts.userId,
      title: `Seeded meme ${i + 1}`,
      category: opts.category?.(i) ?? MEME_CATEGORY_VALUES[i % MEME_CATEGORY_VALUES.length]!,
      imageKey: `memes/${hex(i + 1)}.jpg`,
      thumbnailKey: `memes/${hex(i + 1)}-thumb.webp`,
      thumbnailWidth: 400,
      thumbnailHeight: 300,
      now: (opts.now ?? app.deps.clock.now()) + i,
    });
    ids.push(row.id);
  }
  return ids;
}
