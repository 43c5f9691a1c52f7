import { z } from 'zod';
import { HOLDER_TIERS } from '#shared/holders.ts';
import { DISPLAYABLE_TEXT, MAX_ROW_ID } from './text.ts';
import { ALL_CATEGORIES, MEME_CATEGORY_VALUES } from '#shared/categories.ts';
import { defineEndpoint, endpointGroup } from './endpoint.ts';
import { memePaths } from './paths.ts';

/**
 * Whom a gallery write refuses: a suspended member, and in raid mode a new account (it cannot
 * post, vote or report; a visitor cannot vote either: docs/decisions/027-raid-day.md).
 */
const GALLERY_WRITE_REFUSES = { suspended: true, raid: 'new accounts' } as const;

/** One file of at most 5 MB. */
export const MEME_IMAGE_MAX_BYTES = 5 * 1024 * 1024;
export const MEME_TITLE_MAX = 100;
export const MEMES_PAGE_DEFAULT = 24;
export const MEMES_PAGE_MAX = 50;

export const memeCategorySchema = z.enum(MEME_CATEGORY_VALUES, {
  error: 'Choose one of the six categories',
});

export const voteTypeSchema = z.enum(['up', 'down'], { error: 'voteType must be up or down' });
export type VoteType = z.infer<typeof voteTypeSchema>;

/** A processed display image as the server hands it out; the only imageUrl a meme may carry. */
export const objectPathSchema = z
  .string({ error: 'imageUrl is required' })
  .regex(/^\/objects\/memes\/[0-9a-f]{64}\.(?:jpg|png|gif)$/, 'imageUrl must be an uploaded image');

export const memeSchema = z.object({
  id: z.number().int().positive(),
  title: z.string(),
  category: memeCategorySchema,
  imageUrl: z.string(),
  thumbnailUrl: z.string(),
  /** The thumbnail's own size, so a card reserves its space before the image arrives. */
  thumbnailWidth: z.number().int().positive(),
  thumbnailHeight: z.number().int().positive(),
  upvotes: z.number().int().nonnegative(),
  downvotes: z.number().int().nonnegative(),
  createdAt: z.iso.datetime(),
  /** The caller's own vote on this meme (member, or visitor by cookie). */
  myVote: voteTypeSchema.nullable(),
  /**
   * Only on its owner's own answers: the classifier held the meme for a moderator's review
   * (docs/decisions/027); nobody else sees it until then.
   */
  held: z.boolean().optional(),
  /**
   * Who posted it, in the gallery and on its page: their page is /u/<username>, and `holder` the
   * tier their proven wallet holds now (docs/decisions/029-holders-at-home.md).
   */
  author: z.object({ username: z.string(), holder: z.enum(HOLDER_TIERS).optional() }).optional(),
});
export type Meme = z.infer<typeof memeSchema>;

/**
 * The gallery's orders (decision 014): New is newest first; Top is the last seven days by score
 * (up minus down votes); Hot is Lemmy's rank of score and age (src/shared/meme-ranking.ts).
 */
export const MEME_SORTS = ['new', 'top', 'hot'] as const;
export type MemeSort = (typeof MEME_SORTS)[number];
export const MEME_SORT_LABELS: Record<MemeSort, string> = {
  new: 'New',
  top: 'Top of the week',
  hot: 'Hot',
};

/**
 * Opaque to clients: the next page's whole address comes in the Link header. New pages by the
 * last id shown; Top and Hot by a snapshot of the order and an offset into it.
 */
const CURSOR_MESSAGE = 'cursor must come from the previous page';
const cursorText = z
  .string()
  .regex(/^[1-9][0-9]{0,9}(?:-[0-9]{1,4})?$/, CURSOR_MESSAGE)
  .refine((cursor) => Number(cursor.split('-')[0]) <= MAX_ROW_ID, CURSOR_MESSAGE);

export const listMemesQuerySchema = z.object({
  category: z
    .enum([ALL_CATEGORIES, ...MEME_CATEGORY_VALUES], { error: 'Unknown category' })
    .optional(),
  sort: z.enum(MEME_SORTS, { error: 'sort must be new, top or hot' }).default('new'),
  limit: z.coerce
    .number({ error: `limit must be a number from 1 to ${MEMES_PAGE_MAX}` })
    .int(`limit must be a number from 1 to ${MEMES_PAGE_MAX}`)
    .min(1, `limit must be a number from 1 to ${MEMES_PAGE_MAX}`)
    .max(MEMES_PAGE_MAX, `limit must be a number from 1 to ${MEMES_PAGE_MAX}`)
    .default(MEMES_PAGE_DEFAULT),
  cursor: cursorText.optional(),
});
export type ListMemesQuery = z.input<typeof listMemesQuerySchema>;
export type ListMemesParams = z.output<typeof listMemesQuerySchema>;

/**
 * `GET /api/memes` answers a list of memes (`listMemesEndpoint`). The next page's address travels in
 * a `Link: <...>; rel="next"` header (RFC 8288), absent on the last page.
 */
export const memesListSchema = z.array(memeSchema);

/** The `rel="next"` target of a Link header, or null (RFC 8288, as far as this API uses it). */
export function nextLink(header: string | null | undefined): string | null {
  for (const link of header?.split(/,(?=\s*<)/) ?? []) {
    const [target, ...params] = link.split(';');
    const url = /^\s*<([^>]*)>\s*$/.exec(target ?? '')?.[1];
    const rel = params
      .map((p) => /^\s*rel\s*=\s*"?([^"]*)"?\s*$/i.exec(p)?.[1])
      .find((value) => value !== undefined);
    if (url !== undefined && rel?.toLowerCase().split(/\s+/).includes('next')) return url;
  }
  return null;
}

export const memeIdParamsSchema = z.object({
  id: z.coerce
    .number({ error: 'Unknown meme' })
    .int('Unknown meme')
    .positive('Unknown meme')
    .max(MAX_ROW_ID, 'Unknown meme'),
});

export const createMemeBodySchema = z.object({
  title: z
    .string({ error: 'Title is required' })
    .trim()
    .min(1, 'Title is required')
    .max(MEME_TITLE_MAX, `Title must be at most ${MEME_TITLE_MAX} characters`)
    .regex(DISPLAYABLE_TEXT, 'Title contains characters that are not allowed'),
  category: memeCategorySchema,
  imageUrl: objectPathSchema,
});
export type CreateMemeBody = z.infer<typeof createMemeBodySchema>;

export const createMemeResponseSchema = z.object({ meme: memeSchema });

export const voteBodySchema = z.object({ voteType: voteTypeSchema });
export type VoteBody = z.infer<typeof voteBodySchema>;

/** Spec-free addition (decision 014): why a meme is reported, from a short list. */
export const REPORT_REASONS = ['spam', 'hateful', 'sexual', 'violent', 'other'] as const;
export type ReportReason = (typeof REPORT_REASONS)[number];
export const REPORT_REASON_LABELS: Record<ReportReason, string> = {
  spam: 'Spam or advertising',
  hateful: 'Hateful or harassing',
  sexual: 'Sexual content',
  violent: 'Violence or gore',
  other: 'Something else',
};
export const reportBodySchema = z.object({
  reason: z.enum(REPORT_REASONS, { error: 'Choose a reason from the list' }),
});
export type ReportBody = z.infer<typeof reportBodySchema>;
export const reportResponseSchema = z.object({ message: z.string() });

export const voteResponseSchema = z.object({
  upvotes: z.number().int().nonnegative(),
  downvotes: z.number().int().nonnegative(),
  myVote: voteTypeSchema.nullable(),
});
export type VoteResponse = z.infer<typeof voteResponseSchema>;

export const uploadTargetResponseSchema = z.object({ uploadURL: z.string() });

export const memeImageBodySchema = z.object({
  imageUrl: z
    .string({ error: 'imageUrl is required' })
    .min(1, 'imageUrl is required')
    .max(4096, 'imageUrl is too long'),
});

export const memeImageResponseSchema = z.object({ objectPath: z.string() });
export type MemeImageResponse = z.infer<typeof memeImageResponseSchema>;

/** The one message the upload form shows for anything missing (tests/e2e/gallery.spec.ts). */
export const MEME_FORM_ERROR = 'Please fill in all fields and upload an image';

/** The gallery: anyone with the site's cookies reads it, votes and reports. */
const gallery = endpointGroup({ tag: 'gallery', access: 'visitor' });
/** A vote or a report on a meme, by its id. */
const onMeme = endpointGroup(gallery, {
  params: memeIdParamsSchema,
  refuses: GALLERY_WRITE_REFUSES,
  errors: { 404: ['NOT_FOUND'], 429: ['RATE_LIMITED'] },
});
/** An upload's two steps: a member's, and the 401 a visitor gets. */
const uploading = endpointGroup({
  tag: 'uploads',
  access: 'member',
  signIn: 'Please log in to upload images',
  refuses: GALLERY_WRITE_REFUSES,
});

/** A vote: the same vote again removes it, the other switches it. */
export const voteEndpoint = defineEndpoint(onMeme, {
  method: 'POST',
  path: memePaths.vote,
  id: 'voteOnMeme',
  summary: "Vote a meme up or down; answers its new counts and the caller's vote",
  refuses: { ...GALLERY_WRITE_REFUSES, raid: 'new accounts and visitors' },
  body: voteBodySchema,
  response: voteResponseSchema,
  errors: { 409: ['NETWORK_VOTES_FULL'] },
});

/**
 * A page of the gallery. The next page's whole address comes in the `Link` header; the client
 * reads it (gallery-api.ts), so it fetches pages by address with this endpoint's response schema.
 */
export const listMemesEndpoint = defineEndpoint(gallery, {
  method: 'GET',
  path: memePaths.list,
  id: 'listMemes',
  summary: 'A page of the gallery; the next page\'s address is in the Link header (rel="next")',
  query: listMemesQuerySchema,
  response: memesListSchema,
  errors: { 400: ['CURSOR_EXPIRED'] },
});

export const getMemeEndpoint = defineEndpoint(gallery, {
  method: 'GET',
  path: memePaths.one,
  id: 'getMeme',
  summary: "One meme, with the caller's vote",
  params: memeIdParamsSchema,
  response: memeSchema,
  errors: { 404: ['NOT_FOUND'] },
});

export const createMemeEndpoint = defineEndpoint({
  method: 'POST',
  path: memePaths.create,
  id: 'createMeme',
  summary: 'Post a meme: a title, a category and an image processed by PUT /api/meme-images',
  tag: 'gallery',
  access: 'member',
  signIn: 'Please log in to upload memes',
  refuses: GALLERY_WRITE_REFUSES,
  body: createMemeBodySchema,
  status: 201,
  response: createMemeResponseSchema,
  errors: {
    400: ['IMAGE_NOT_AVAILABLE'],
    403: ['LINKS_NOT_ALLOWED'],
    429: ['RATE_LIMITED', 'UPLOAD_SLOTS_USED'],
  },
});

export const reportMemeEndpoint = defineEndpoint(onMeme, {
  method: 'POST',
  path: memePaths.report,
  id: 'reportMeme',
  summary: 'Report a meme to the moderators; enough reports hide it until they decide',
  body: reportBodySchema,
  response: reportResponseSchema,
  errors: { 409: ['ALREADY_REPORTED'] },
});

/** Step one of an upload: where to PUT the file (a presigned S3 URL or the local store's). */
export const uploadTargetEndpoint = defineEndpoint(uploading, {
  method: 'POST',
  path: memePaths.uploadTarget,
  id: 'createUploadTarget',
  summary: 'An address to PUT one image file to (expires after 15 minutes)',
  response: uploadTargetResponseSchema,
  errors: { 429: ['RATE_LIMITED'] },
});

/** Step two: the uploaded file becomes a display image and thumbnail the member may post. */
export const memeImageEndpoint = defineEndpoint(uploading, {
  method: 'PUT',
  path: memePaths.memeImages,
  id: 'processMemeImage',
  summary: 'Process an uploaded file into a display image; answers its objectPath',
  body: memeImageBodySchema,
  response: memeImageResponseSchema,
  errors: {
    400: ['BAD_UPLOAD_URL', 'UPLOAD_MISSING', 'UPLOAD_EXPIRED', 'corrupt_image'],
    404: ['NOT_FOUND'],
    409: ['UPLOAD_USED', 'DUPLICATE_MEME', 'MEME_UNDER_REVIEW'],
    413: ['TOO_LARGE', 'image_too_large'],
    415: ['unsupported_image'],
    // Checked before the decode too (memes/upload-slots.ts), so no image is processed in vain.
    429: ['RATE_LIMITED', 'UPLOAD_SLOTS_USED'],
    503: ['BUSY'],
  },
});
