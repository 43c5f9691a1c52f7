import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import sharp from 'sharp';
import { nextLink, type Meme } from '#shared/api/memes.ts';
import { MEME_CATEGORY_VALUES } from '#shared/categories.ts';
import type { TestClient } from './test-client.ts';
import type { Database } from '#server/db/database.ts';
import { insertMeme } from '#server/memes/repository.ts';
import { VISITOR_COOKIE, verifyVisitorCookie, visitorVoter } from '#server/memes/voter.ts';
import { memePaths } from '#shared/api/paths.ts';

let picture = 0;
/**
 * A small PNG no earlier call in this process drew: a grid of blocks whose shades come from a
 * seeded generator, so every upload is a new picture to the duplicate check too (plain colours
 * would all look alike to a perceptual hash).
 */
export async function distinctPng(width = 48, height = 32): Promise<Buffer> {
  picture += 1;
  return blockPicture(picture, width, height, 'png');
}

/** Picture `n` of the block grids distinctPng draws, at any size and in any format. */
export async function blockPicture(
  n: number,
  width: number,
  height: number,
  format: 'png' | 'jpeg' | 'webp',
): Promise<Buffer> {
  let state = (n * 2654435761) >>> 0;
  const next = () => {
    state = (Math.imul(state ^ (state >>> 15), 0x2c1b3c6d) + 0x6d2b79f5) >>> 0;
    return state >>> 24;
  };
  const cells = Array.from({ length: 64 }, () => [next(), next(), next()] as const);
  const pixels = Buffer.alloc(width * height * 3);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const cell = cells[Math.floor((y * 8) / height) * 8 + Math.floor((x * 8) / width)]!;
      pixels.set(cell, (y * width + x) * 3);
    }
  }
  return sharp(pixels, { raw: { width, height, channels: 3 } })
    .toFormat(format, { quality: 80 })
    .toBuffer();
}

/** Upload URL, PUT, processing: the objectPath the member may post (local store, via inject). */
export async function processedImage(
  app: FastifyInstance,
  member: TestClient,
  bytes?: Buffer,
): Promise<string> {
  const target = await member.request('POST', memePaths.uploadTarget);
  if (target.statusCode !== 200) throw new Error(`upload URL: ${target.statusCode} ${target.body}`);
  const { uploadURL } = target.json<{ uploadURL: string }>();
  const put = await app.inject({
    method: 'PUT',
    url: uploadURL,
    payload: bytes ?? (await distinctPng()),
    headers: { 'content-type': 'image/png' },
  });
  if (put.statusCode !== 200) throw new Error(`upload: ${put.statusCode} ${put.body}`);
  const processed = await member.request('PUT', memePaths.memeImages, {
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
  const res = await member.request('POST', memePaths.create, {
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

/** One gallery page as a client written to the spec reads it: the array, and the Link header. */
export async function listPage(
  client: TestClient,
  url: string,
): Promise<{ memes: Meme[]; next: string | null }> {
  const res = await client.request('GET', url);
  if (res.statusCode !== 200) throw new Error(`list: ${res.statusCode} ${res.body}`);
  const memes = res.json<Meme[]>();
  if (!Array.isArray(memes)) throw new Error(`list: not an array: ${res.body}`);
  const link = res.headers.link;
  return { memes, next: nextLink(typeof link === 'string' ? link : undefined) };
}

/** Every card of a list, following Link rel="next" from `url` to the last page. */
export async function allPages(client: TestClient, url: string): Promise<Meme[]> {
  const memes: Meme[] = [];
  for (let next: string | null = url; next;) {
    const page = await listPage(client, next);
    memes.push(...page.memes);
    next = page.next;
  }
  return memes;
}

/**
 * A visitor's voter key as the server stores it, read from the signed cookie the client holds
 * (`vid`, or `__Host-vid` over https); null before its first vote.
 */
export function visitorVoterOf(client: TestClient, secret: string): string | null {
  for (const [name, value] of client.cookies) {
    if (name !== VISITOR_COOKIE && name !== `__Host-${VISITOR_COOKIE}`) continue;
    const id = verifyVisitorCookie(value, secret);
    if (id) return visitorVoter(id);
  }
  return null;
}

/**
 * Hides or shows a meme straight in the database, behind the app's back (as another node's or
 * the operator's change lands); false when there is no such meme.
 */
export async function setMemeHidden(
  db: Kysely<Database>,
  id: number,
  hidden: boolean,
): Promise<boolean> {
  const result = await db
    .updateTable('memes')
    .set({ hidden: hidden ? 1 : 0 })
    .where('id', '=', id)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}
