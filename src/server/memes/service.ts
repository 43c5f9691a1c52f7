import type {
  CreateMemeBody,
  ListMemesParams,
  Meme,
  MemesPage,
  VoteType,
} from '#shared/api/memes.ts';
import type { AppDeps, SessionUser } from '../deps.ts';
import { HttpError, notFound } from '../http-error.ts';
import { keyFromObjectPath, objectPathForKey } from '../uploads/object-paths.ts';
import { takeMemeImage } from '../uploads/repository.ts';
import { enforceRateLimit, GALLERY_LIMITS } from './limits.ts';
import {
  castVote,
  insertMeme,
  listVisibleMemes,
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
    myVote: row.my_vote ?? null,
  };
}

export async function listMemes(
  deps: AppDeps,
  { category, limit, before }: ListMemesParams,
  voter: string | null,
): Promise<MemesPage> {
  // One extra row says whether another page follows, without a count.
  const rows = await listVisibleMemes(deps.db, {
    category: category === 'all' ? undefined : category,
    limit: limit + 1,
    beforeId: before === undefined ? undefined : Number(before),
    voter,
  });
  const page = rows.slice(0, limit);
  return {
    memes: page.map(toMeme),
    nextCursor: rows.length > limit ? String(page[page.length - 1]!.id) : null,
  };
}

export async function createMeme(
  deps: AppDeps,
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
  return deps.db.transaction().execute(async (trx) => {
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
}

export async function vote(
  deps: AppDeps,
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
  return result;
}
