import {
  memesPageSchema,
  type CreateMemeBody,
  type ListMemesParams,
  type Meme,
  type VoteType,
} from '#shared/api/memes.ts';
import type { AppDeps, SessionUser } from '../deps.ts';
import { HttpError, notFound } from '../http-error.ts';
import { keyFromObjectPath, objectPathForKey } from '../uploads/object-paths.ts';
import { takeMemeImage } from '../uploads/repository.ts';
import { enforceRateLimit } from '../security/rate-limit.ts';
import { GALLERY_LIMITS } from './limits.ts';
import type { ReadCache } from '../http/read-cache.ts';
import {
  castVote,
  insertMeme,
  listVisibleMemes,
  votesOf,
  type MemeRow,
  type VoteResult,
} from './repository.ts';

export function toMeme(row: MemeRow): Meme {
  return {
    id: row.id,
    title: row.title,
    category: row.category as Meme['category'],
    imageUrl: objectPathForKey(row.image_key),
    thumbnailUrl: objectPathForKey(row.thumbnail_key),
    thumbnailWidth: row.thumbnail_width,
    thumbnailHeight: row.thumbnail_height,
    upvotes: row.upvotes,
    downvotes: row.downvotes,
    createdAt: new Date(row.created_at).toISOString(),
    myVote: null,
  };
}

/** A gallery page as every reader without votes sees it, and as its JSON text. */
export interface CachedPage {
  /** Every meme with `myVote: null`; a caller's own votes are laid over per request. */
  memes: Meme[];
  nextCursor: string | null;
  json: string;
}

export interface Gallery {
  deps: AppDeps;
  /** Pages by their query's normalised key (the one read-cache rule, http/read-cache.ts). */
  cache: ReadCache<CachedPage>;
}

/**
 * A page of the gallery as JSON text: the page from the read cache, checked against the shared
 * contract when it was made; the caller's own votes are read per request and laid over it.
 */
export async function listMemesJson(
  { deps, cache }: Gallery,
  { category, limit, before }: ListMemesParams,
  voter: string | null,
): Promise<string> {
  const key = `${category ?? 'all'}:${limit}:${before ?? ''}`;
  const page = await cache.get(key, async () => {
    // One extra row says whether another page follows, without a count.
    const rows = await listVisibleMemes(deps.db, {
      category: category === 'all' ? undefined : category,
      limit: limit + 1,
      beforeId: before === undefined ? undefined : Number(before),
    });
    const memes = rows.slice(0, limit).map(toMeme);
    const parsed = memesPageSchema.parse({
      memes,
      nextCursor: rows.length > limit ? String(memes[memes.length - 1]!.id) : null,
    });
    return { ...parsed, json: JSON.stringify(parsed) };
  });
  const votes =
    voter === null
      ? null
      : await votesOf(
          deps.db,
          voter,
          page.memes.map((m) => m.id),
        );
  if (votes === null || votes.size === 0) return page.json;
  return JSON.stringify({
    memes: page.memes.map((m) => {
      const myVote = votes.get(m.id);
      return myVote ? { ...m, myVote } : m;
    }),
    nextCursor: page.nextCursor,
  });
}

/** Posts a meme; this node's cached pages are dropped, so its readers see it at once. */
export async function createMeme(
  { deps, cache }: Gallery,
  user: SessionUser,
  body: CreateMemeBody,
): Promise<Meme> {
  await enforceRateLimit(
    deps.rateLimiter,
    `meme-post:user:${user.id}`,
    GALLERY_LIMITS.postPerMember,
    'Too many memes at once. Please try again later.',
  );
  const imageKey = keyFromObjectPath(body.imageUrl);
  if (!imageKey)
    throw new HttpError(400, 'imageUrl must be an uploaded image', 'IMAGE_NOT_AVAILABLE');
  const meme = await deps.db.transaction().execute(async (trx) => {
    const image = await takeMemeImage(trx, user.id, imageKey);
    if (!image) {
      throw new HttpError(
        400,
        'Upload the image first: imageUrl must be an image you uploaded and have not posted yet.',
        'IMAGE_NOT_AVAILABLE',
      );
    }
    const row = await insertMeme(trx, {
      userId: user.id,
      title: body.title,
      category: body.category,
      imageKey,
      thumbnailKey: image.thumbnail_key,
      thumbnailWidth: image.thumbnail_width,
      thumbnailHeight: image.thumbnail_height,
      now: deps.clock.now(),
    });
    return toMeme(row);
  });
  cache.clear();
  return meme;
}

export async function vote(
  { deps, cache }: Gallery,
  opts: { memeId: number; voter: string; voteType: VoteType; ip: string },
): Promise<VoteResult> {
  await enforceRateLimit(
    deps.rateLimiter,
    `vote:ip:${opts.ip}`,
    GALLERY_LIMITS.votePerIp,
    'Too many votes. Please slow down.',
  );
  const result = await castVote(deps.db, { ...opts, now: deps.clock.now() });
  if (!result) throw notFound('Meme not found');
  cache.clear();
  return result;
}
