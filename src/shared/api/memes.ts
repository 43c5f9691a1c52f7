import { z } from 'zod';
import { DISPLAYABLE_TEXT, MAX_ROW_ID } from './text.ts';
import { ALL_CATEGORIES, MEME_CATEGORY_VALUES } from '#shared/categories.ts';

/** Spec section 5: one file of at most 5 MB. */
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
});
export type Meme = z.infer<typeof memeSchema>;

/** A meme id as a positive integer; the cursor is the id of the last meme of the page before. */
const positiveIdText = z
  .string()
  .regex(/^[1-9][0-9]{0,9}$/, 'before must be a cursor from the previous page')
  .refine((id) => Number(id) <= MAX_ROW_ID, 'before must be a cursor from the previous page');

export const listMemesQuerySchema = z.object({
  category: z
    .enum([ALL_CATEGORIES, ...MEME_CATEGORY_VALUES], { error: 'Unknown category' })
    .optional(),
  limit: z.coerce
    .number({ error: `limit must be a number from 1 to ${MEMES_PAGE_MAX}` })
    .int(`limit must be a number from 1 to ${MEMES_PAGE_MAX}`)
    .min(1, `limit must be a number from 1 to ${MEMES_PAGE_MAX}`)
    .max(MEMES_PAGE_MAX, `limit must be a number from 1 to ${MEMES_PAGE_MAX}`)
    .default(MEMES_PAGE_DEFAULT),
  before: positiveIdText.optional(),
});
export type ListMemesQuery = z.input<typeof listMemesQuerySchema>;
export type ListMemesParams = z.output<typeof listMemesQuerySchema>;

/**
 * Newest first; `nextCursor` goes back as `before` for the next page and is null on the last.
 * A page, not the bare list of spec section 7: see docs/decisions (memes page shape).
 */
export const memesPageSchema = z.object({
  memes: z.array(memeSchema),
  nextCursor: z.string().nullable(),
});
export type MemesPage = z.infer<typeof memesPageSchema>;

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

/** Spec section 5: the one message the upload form shows for anything missing. */
export const MEME_FORM_ERROR = 'Please fill in all fields and upload an image';
