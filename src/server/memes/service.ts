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
import { enforceRateLimit, GALLERY_LIMITS } from './limits.ts';
import type { MemePageCache } from './page-cache.ts';
import {
  castVote,
  galleryVersion,
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

export interface Gallery {
  deps: AppDeps;
  cache: MemePageCache;
}

/**
 * A page of the gallery as JSON (text, or the cached page's bytes). The page itself comes from
 * the cache when the gallery has not changed (see MemePageCache), checked against the shared
 * contract when it is made; the caller's own votes are read per request and laid over it.
 */
export async function listMemesJson(
  { deps, cache }: Gallery,
  { category, limit, before }: ListMemesParams,
  voter: string | null,
): Promise<string | Buffer> {
  const key = `${category ?? 'all'}:${limit}:${before ?? ''}`;
  const version = await cache.readVersion(() => galleryVersion(deps.pageReadDb));
  const page = await cache.page(key, version, async () => {
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
    return { ...parsed, json: null };
  });
  const ids = page.memes.map((m) => m.id);
  const votes = voter === null ? null : await votesOf(deps.db, voter, ids);
  if (votes === null || votes.size === 0) {
    page.json ??= Buffer.from(JSON.stringify({ memes: page.memes, nextCursor: page.nextCursor }));
    return page.json;
  }
  return JSON.stringify({
    memes: page.memes.map((m) => {
      const myVote = votes.get(m.id);
      return myVote ? { ...m, myVote } : m;
    }),
    nextCursor: page.nextCursor,
  });
}

/**
 * Posts a meme. The gallery version moves with it, so a version read this node started before
 * the post is not shared with the requests after it (they must see the new meme).
 */
export async function createMeme(
  { deps, cache }: Gallery,
  user: SessionUser,
  body: CreateMemeBody,
): Promise<Meme> {
  await enforceRateLimit(
    deps,
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
  cache.forgetVersionRead();
  return meme;
}

export async function vote(
  { deps, cache }: Gallery,
  opts: { memeId: number; voter: string; voteType: VoteType; ip: string },
): Promise<VoteResult> {
  await enforceRateLimit(
    deps,
    `vote:ip:${opts.ip}`,
    GALLERY_LIMITS.votePerIp,
    'Too many votes. Please slow down.',
  );
  const result = await castVote(deps.db, { ...opts, now: deps.clock.now() });
  if (!result) throw notFound('Meme not found');
  cache.applyCounts(opts.memeId, result.upvotes, result.downvotes);
  return result;
}
