import { MINUTE_MS } from '#shared/time.ts';
import { memePaths } from '#shared/api/paths.ts';
import {
  MEMES_PAGE_DEFAULT,
  memesListSchema,
  type CreateMemeBody,
  type ListMemesParams,
  type Meme,
  type VoteType,
} from '#shared/api/memes.ts';
import { hasLink, STANDING_LABELS } from '#shared/standing.ts';
import type { AppDeps, SessionUser } from '../deps.ts';
import { usernamesOf } from '../accounts/repository.ts';
import { holderTiers } from '../holders/service.ts';
import { HttpError, notFound } from '../http-error.ts';
import { keyFromObjectPath, objectPathForKey } from './object-paths.ts';
import { takeMemeImage } from './meme-images.ts';
import type { ReadCache } from '../http/read-cache.ts';
import { enforceRateLimit } from '../security/rate-limit.ts';
import { recordLiveEvent } from '../live/record.ts';
import { GALLERY_LIMITS } from './limits.ts';
import {
  castVote,
  findVisibleMeme,
  insertListSnapshot,
  insertMeme,
  listNewMemes,
  listSnapshot,
  rankedMemeIds,
  recentListSnapshot,
  visibleMemesByIds,
  votesOf,
  type MemeRow,
  type VoteResult,
} from './repository.ts';
import { claimUploadSlot } from './upload-slots.ts';
import { holdForReview, ownHeldMeme, recordScreenScore } from './held.ts';
import { holds } from './screen-score.ts';
import { memberStanding } from './standing.ts';
import { VISITOR_VOTES_PER_NETWORK } from './vote-rules.ts';
import type { Voter } from './voter.ts';

/** A link in a title is a scammer's first tool: only a trusted member's may hold one (027). */
async function refuseLinksBelowStanding(deps: AppDeps, userId: number): Promise<void> {
  const { standing, allowance } = await memberStanding(deps.db, userId, deps.clock.now());
  if (allowance.linksInTitles) return;
  throw new HttpError(
    403,
    `Links and web addresses in titles are for trusted members; your standing is ${STANDING_LABELS[standing.level]}. Please post the meme without one.`,
    'LINKS_NOT_ALLOWED',
  );
}

export type MemeAuthor = NonNullable<Meme['author']>;

/**
 * The authors of `rows` by member id: their names (a card links to their page) and the holder
 * tier their wallet holds now (docs/decisions/029-holders-at-home.md).
 */
async function authorsOf(
  db: AppDeps['db'],
  rows: ReadonlyArray<{ user_id: number | null }>,
): Promise<Map<number, MemeAuthor>> {
  const ids = rows.flatMap((row) => (row.user_id === null ? [] : [row.user_id]));
  const [names, tiers] = await Promise.all([usernamesOf(db, ids), holderTiers(db, ids)]);
  return new Map(
    [...names].map(([id, username]) => {
      const holder = tiers.get(id);
      return [id, holder ? { username, holder } : { username }];
    }),
  );
}

export function toMeme(row: MemeRow, authors?: Map<number, MemeAuthor>): Meme {
  const author = row.user_id === null ? undefined : authors?.get(row.user_id);
  return {
    ...(author && { author }),
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
 * Top and Hot pages come from a snapshot of the list's order (meme_list_snapshots): taken by
 * the first page, shared by every first page for a minute, and read by the pages after it for
 * six hours. Votes and the passing hours reorder the live ranking, but never the snapshot a
 * reader is paging through, so no card repeats or goes missing; the cards still show today's
 * counts, and a meme hidden since is left out.
 */
const SNAPSHOT_REUSE_MS = MINUTE_MS;
export const SNAPSHOT_TTL_MS = 6 * 3_600_000;
/** Top and Hot show at most this many cards (42 pages of the default size). */
const SNAPSHOT_MAX = 1000;

const badCursor = () => new HttpError(400, 'cursor must come from the previous page', 'VALIDATION');

/** The address of the page after this one: what the Link header's rel="next" carries. */
export function nextPageLink(query: ListMemesParams, cursor: string): string {
  const params = new URLSearchParams();
  if (query.category && query.category !== 'all') params.set('category', query.category);
  if (query.sort !== 'new') params.set('sort', query.sort);
  if (query.limit !== MEMES_PAGE_DEFAULT) params.set('limit', String(query.limit));
  params.set('cursor', cursor);
  return `${memePaths.list}?${params.toString()}`;
}

async function loadPage(
  deps: AppDeps,
  { category: filter, sort, limit, cursor }: ListMemesParams,
): Promise<CachedPage> {
  const category = filter === 'all' ? undefined : filter;
  const page = async (rows: MemeRow[], nextCursor: string | null): Promise<CachedPage> => {
    const authors = await authorsOf(deps.db, rows);
    const memes = memesListSchema.parse(rows.map((row) => toMeme(row, authors)));
    return { memes, nextCursor, json: JSON.stringify(memes) };
  };
  if (sort === 'new') {
    if (cursor?.includes('-')) throw badCursor();
    // One extra row says whether another page follows, without a count.
    const rows = await listNewMemes(deps.db, {
      category,
      limit: limit + 1,
      beforeId: cursor === undefined ? undefined : Number(cursor),
    });
    const shown = rows.slice(0, limit);
    return page(shown, rows.length > limit ? String(shown[shown.length - 1]!.id) : null);
  }
  const listKey = `${sort}:${category ?? 'all'}`;
  const now = deps.clock.now();
  let snapshot: { id: number; memeIds: number[] } | undefined;
  let offset = 0;
  if (cursor === undefined) {
    snapshot = await recentListSnapshot(deps.db, listKey, now - SNAPSHOT_REUSE_MS);
    if (!snapshot) {
      const memeIds = await rankedMemeIds(deps.db, { sort, category, now, max: SNAPSHOT_MAX });
      const id = await insertListSnapshot(deps.db, {
        listKey,
        memeIds,
        now,
        expireBefore: now - SNAPSHOT_TTL_MS,
      });
      snapshot = { id, memeIds };
    }
  } else {
    const [idText, offsetText] = cursor.split('-');
    if (offsetText === undefined) throw badCursor();
    const memeIds = await listSnapshot(deps.db, Number(idText), listKey, now - SNAPSHOT_TTL_MS);
    if (!memeIds) {
      throw new HttpError(
        400,
        'This list has changed since it was loaded. Please reload the gallery.',
        'CURSOR_EXPIRED',
      );
    }
    snapshot = { id: Number(idText), memeIds };
    offset = Number(offsetText);
  }
  const end = offset + limit;
  const rows = await visibleMemesByIds(deps.db, snapshot.memeIds.slice(offset, end));
  return page(rows, end < snapshot.memeIds.length ? `${snapshot.id}-${end}` : null);
}

/**
 * A page of the gallery as JSON text and the cursor of the page after it: the page from the read
 * cache (http/read-cache.ts), checked against the shared contract when it was made, and loaded
 * after the caller's own last vote on this node; the caller's own votes are read per request and
 * laid over it.
 */
export async function listMemesJson(
  { deps, cache }: Gallery,
  query: ListMemesParams,
  voter: string | null,
): Promise<{ json: string; nextCursor: string | null }> {
  const key = `${query.sort}:${query.category ?? 'all'}:${query.limit}:${query.cursor ?? ''}`;
  const page = await cache.get(key, () => loadPage(deps, query), voter ?? undefined);
  const ids = page.memes.map((m) => m.id);
  const votes = voter === null ? null : await votesOf(deps.db, voter, ids);
  if (votes === null || votes.size === 0) return { json: page.json, nextCursor: page.nextCursor };
  const json = JSON.stringify(
    page.memes.map((m) => {
      const myVote = votes.get(m.id);
      return myVote ? { ...m, myVote } : m;
    }),
  );
  return { json, nextCursor: page.nextCursor };
}

/**
 * One visible meme with the caller's vote; 404 when it is hidden or gone, but for its owner a meme
 * held by the classifier (marked `held`: they see it waits for a moderator).
 */
export async function getMeme(
  deps: AppDeps,
  id: number,
  voter: string | null,
  ownerId?: number,
): Promise<Meme> {
  const row = await findVisibleMeme(deps.db, id);
  if (!row) {
    const held = ownerId === undefined ? undefined : await ownHeldMeme(deps.db, id, ownerId);
    if (held) return { ...toMeme(held), held: true };
    throw notFound('Meme not found');
  }
  const meme = toMeme(row, await authorsOf(deps.db, [row]));
  if (voter !== null) meme.myVote = (await votesOf(deps.db, voter, [id])).get(id) ?? null;
  return meme;
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
  if (hasLink(body.title)) await refuseLinksBelowStanding(deps, user.id);
  const imageKey = keyFromObjectPath(body.imageUrl);
  if (!imageKey)
    throw new HttpError(400, 'imageUrl must be an uploaded image', 'IMAGE_NOT_AVAILABLE');
  const now = deps.clock.now();
  const meme = await deps.db.transaction().execute(async (trx) => {
    await claimUploadSlot(trx, user.id, now);
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
      phash: image.phash,
      imageWidth: image.image_width,
      imageHeight: image.image_height,
      now,
    });
    const score = image.screen_score;
    if (score !== null && holds(score, deps.config.screening.holdThreshold)) {
      await holdForReview(trx, deps, { id: row.id, title: row.title, user, score }, now);
      return { ...toMeme(row), held: true };
    }
    if (score !== null) await recordScreenScore(trx, row.id, score);
    return toMeme(row);
  });
  cache.clear();
  if (!meme.held)
    recordLiveEvent(deps.db, { type: 'meme', data: { id: meme.id, change: 'added' } });
  // As the gallery will show it: with its author (read after the commit, as the list reads it).
  const author = (await authorsOf(deps.db, [{ user_id: user.id }])).get(user.id);
  return author ? { ...meme, author } : meme;
}

export async function vote(
  { deps, cache }: Gallery,
  opts: { memeId: number; voter: Voter; voteType: VoteType; network: string },
): Promise<VoteResult> {
  await enforceRateLimit(
    deps.rateLimiter,
    `vote:net:${opts.network}`,
    GALLERY_LIMITS.votePerIp,
    'Too many votes. Please slow down.',
  );
  const result = await castVote(deps.db, {
    memeId: opts.memeId,
    voter: opts.voter.key,
    network: opts.voter.network,
    voteType: opts.voteType,
    now: deps.clock.now(),
  });
  if (result === 'not-found') throw notFound('Meme not found');
  if (result === 'network-full') {
    throw new HttpError(
      409,
      `${VISITOR_VOTES_PER_NETWORK} visitors on your network have already voted on this meme. Log in to vote.`,
      'NETWORK_VOTES_FULL',
    );
  }
  // Votes come many a second: readers get the counts one page load later, the voter at once
  // (decision 011). Dropping the pages instead made every reader wait for a load.
  cache.markStale(opts.voter.key);
  recordLiveEvent(deps.db, {
    type: 'vote',
    data: { id: opts.memeId, upvotes: result.upvotes, downvotes: result.downvotes },
  });
  return result;
}
