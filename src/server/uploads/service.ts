import { DAY_MS, HOUR_MS, MINUTE_MS } from '#shared/time.ts';
import type { Readable } from 'node:stream';
import { MEME_IMAGE_MAX_BYTES } from '#shared/api/memes.ts';
import type { AppDeps, SessionUser } from '../deps.ts';
import { HttpError, notFound } from '../http-error.ts';
import type { ImageOutcome } from '../metrics/metrics.ts';
import { GALLERY_LIMITS } from '../memes/limits.ts';
import { enforceRateLimit } from '../security/rate-limit.ts';
import { isObjectReferenced } from '../memes/repository.ts';
import { claimUploadSlot } from '../memes/upload-slots.ts';
import { findSamePicture } from './duplicates.ts';
import type { LocalDiskStore } from '../storage/local-disk.ts';
import {
  contentAddressedKey,
  isUploadKey,
  newUploadKey,
  ObjectExistsError,
  TooLargeError,
  type ObjectStore,
} from '../storage/object-store.ts';
import { QueueFullError } from './fair-queue.ts';
import {
  ImageRejectedError,
  type ImageProcessor,
  type ProcessedImage,
} from './image-processing.ts';
import { objectPathForKey } from '../memes/object-paths.ts';
import { deleteMemeImage, insertMemeImage, staleMemeImages } from '../memes/meme-images.ts';
import {
  consumeUpload,
  deleteUpload,
  expiredUploads,
  findUpload,
  insertUpload,
} from './repository.ts';

/** How long an upload URL may be used. */
export const UPLOAD_URL_TTL_MS = 15 * MINUTE_MS;
/** A file sent just before its URL ran out may still be processed for this long. */
export const UPLOAD_PROCESS_GRACE_MS = HOUR_MS;
/** A processed image not posted as a meme within this time is swept. */
export const UNUSED_IMAGE_TTL_MS = DAY_MS;
/** Processed objects are named by their content, so they never change. */
export const IMMUTABLE_CACHE = 'public, max-age=31536000, immutable';

export interface UploadContext {
  deps: AppDeps;
  store: ObjectStore;
  processor: ImageProcessor;
  /** The NSFW classifier (screening.ts), or undefined when SCREEN_IMAGES is off. */
  screen?: (image: Buffer) => Promise<number>;
}

const TOO_LARGE_MESSAGE = 'The image is larger than 5 MB.';

/** POST /api/objects/upload: a one-time URL for one file of at most 5 MB. */
export async function issueUploadTarget(
  ctx: UploadContext,
  user: SessionUser,
): Promise<{ uploadURL: string }> {
  const { deps, store } = ctx;
  await enforceRateLimit(
    deps.rateLimiter,
    `upload-url:user:${user.id}`,
    GALLERY_LIMITS.uploadUrlPerMember,
    'Too many uploads. Please try again later.',
  );
  const now = deps.clock.now();
  const key = newUploadKey();
  const expiresAt = now + UPLOAD_URL_TTL_MS;
  await insertUpload(deps.db, { key, userId: user.id, now, expiresAt });
  return store.createUploadTarget({
    key,
    maxBytes: MEME_IMAGE_MAX_BYTES,
    expiresAt: new Date(expiresAt),
  });
}

/**
 * PUT /api/uploads/:token (local store only): the signed token is the credential, so this is
 * the one mutating /api call without a CSRF token (see security/csrf.ts). Every refusal closes
 * the connection rather than reading a body nobody wants.
 */
export async function receiveLocalUpload(
  ctx: UploadContext,
  store: LocalDiskStore,
  token: string,
  body: Readable,
  contentLength: number | undefined,
): Promise<{ size: number }> {
  const close = { connection: 'close' };
  const check = store.verifyUploadToken(token);
  if (!check.ok) {
    // The spec's upload helper recognises S3's wording for an expired URL and asks for a new one.
    throw check.reason === 'expired'
      ? new HttpError(403, 'Request has expired', 'UPLOAD_EXPIRED', close)
      : new HttpError(403, 'Forbidden: invalid upload URL', 'UPLOAD_FORBIDDEN', close);
  }
  const { key, maxBytes } = check.payload;
  const upload = await findUpload(ctx.deps.db, key);
  if (!upload) throw new HttpError(403, 'Forbidden: invalid upload URL', 'UPLOAD_FORBIDDEN', close);
  if (upload.consumed_at !== null) {
    throw new HttpError(409, 'This upload has already been used.', 'UPLOAD_USED', close);
  }
  if (contentLength !== undefined && contentLength > maxBytes) {
    throw new HttpError(413, TOO_LARGE_MESSAGE, 'TOO_LARGE', close);
  }
  try {
    return await store.writeUploadStream(key, body, maxBytes);
  } catch (error) {
    if (error instanceof TooLargeError)
      throw new HttpError(413, TOO_LARGE_MESSAGE, 'TOO_LARGE', close);
    if (error instanceof ObjectExistsError)
      throw new HttpError(409, error.message, 'UPLOAD_USED', close);
    // The sender went away mid-body: their doing, not a failure of ours to log at error level.
    if (body.readableAborted) {
      throw new HttpError(400, 'The upload was interrupted.', 'UPLOAD_INTERRUPTED', close);
    }
    throw error;
  }
}

function enterProcessingLine(deps: AppDeps, processor: ImageProcessor, userId: number) {
  try {
    return processor.enter(String(userId));
  } catch (error) {
    if (!(error instanceof QueueFullError)) throw error;
    deps.metrics.imageJobs.inc({ outcome: `queue_full_${error.scope}` });
    const headers = { 'retry-after': String(error.retryAfterSeconds) };
    if (error.scope === 'member') {
      throw new HttpError(
        429,
        'Your earlier images are still being processed. Please try again shortly.',
        'RATE_LIMITED',
        headers,
      );
    }
    throw new HttpError(
      503,
      'Too many images are being processed right now. Please try again shortly.',
      'BUSY',
      headers,
    );
  }
}

/**
 * PUT /api/meme-images: reads the member's raw upload, lets the image pipeline decide what it
 * is, stores a clean display image and thumbnail under content-addressed keys, deletes the raw
 * file in every case, and records that this member may post the result once.
 */
export async function processUpload(
  ctx: UploadContext,
  user: SessionUser,
  imageUrl: string,
): Promise<{ objectPath: string }> {
  const { deps, store, processor } = ctx;
  await enforceRateLimit(
    deps.rateLimiter,
    `process-image:user:${user.id}`,
    GALLERY_LIMITS.processPerMember,
    'Too many uploads. Please try again later.',
  );
  await claimUploadSlot(deps.db, user.id, deps.clock.now(), true);
  const key = store.keyFromUploadURL(imageUrl);
  if (!key || !isUploadKey(key)) {
    throw new HttpError(400, 'imageUrl is not an upload URL of this site', 'BAD_UPLOAD_URL');
  }
  const now = deps.clock.now();
  const upload = await findUpload(deps.db, key);
  if (!upload || upload.user_id !== user.id) throw notFound('Upload not found');
  if (upload.consumed_at !== null) {
    throw new HttpError(409, 'This upload has already been processed.', 'UPLOAD_USED');
  }
  const notExpiredBefore = now - UPLOAD_PROCESS_GRACE_MS;
  if (upload.expires_at <= notExpiredBefore) {
    throw new HttpError(
      400,
      'This upload has expired. Please upload the image again.',
      'UPLOAD_EXPIRED',
    );
  }

  let input: Buffer | null;
  try {
    input = await store.getObjectBuffer(key, MEME_IMAGE_MAX_BYTES);
  } catch (error) {
    if (!(error instanceof TooLargeError)) throw error;
    await consumeUpload(deps.db, { key, userId: user.id, now, notExpiredBefore });
    await store.deleteObject(key);
    throw new HttpError(413, TOO_LARGE_MESSAGE, 'TOO_LARGE');
  }
  if (!input) throw new HttpError(400, 'No file has been uploaded to this URL.', 'UPLOAD_MISSING');
  // A place in the processing line before the upload is used up, so a refusal costs nothing.
  const place = enterProcessingLine(deps, processor, user.id);
  // Taken before the work, so two calls for one upload cannot both store an image.
  if (!(await consumeUpload(deps.db, { key, userId: user.id, now, notExpiredBefore }))) {
    place.cancel();
    throw new HttpError(409, 'This upload has already been processed.', 'UPLOAD_USED');
  }

  const outcome = (name: ImageOutcome) => deps.metrics.imageJobs.inc({ outcome: name });
  let processed: ProcessedImage;
  try {
    processed = await place.process(input);
  } catch (error) {
    await store.deleteObject(key);
    if (error instanceof ImageRejectedError) {
      outcome('rejected');
      throw new HttpError(error.status, error.message, error.code);
    }
    outcome('error');
    throw error;
  }
  const { display, thumbnail, phash } = processed;
  const same = await findSamePicture(deps.db, phash, user.id);
  if (same) {
    outcome('duplicate');
    await store.deleteObject(key);
    throw same;
  }
  // Scored from the clean display image; a high score holds the meme when it is posted.
  const screenScore = ctx.screen ? await ctx.screen(display.buffer) : null;
  const imageKey = contentAddressedKey('memes', display.buffer, display.ext);
  const thumbnailKey = contentAddressedKey('memes', thumbnail.buffer, thumbnail.ext, 'thumb');
  await Promise.all([
    store.putObject(imageKey, display.buffer, display.contentType, IMMUTABLE_CACHE),
    store.putObject(thumbnailKey, thumbnail.buffer, thumbnail.contentType, IMMUTABLE_CACHE),
  ]);
  await insertMemeImage(deps.db, {
    userId: user.id,
    imageKey,
    thumbnailKey,
    thumbnailWidth: thumbnail.width,
    thumbnailHeight: thumbnail.height,
    phash,
    imageWidth: display.width,
    imageHeight: display.height,
    screenScore,
    now: deps.clock.now(),
  });
  await store.deleteObject(key);
  outcome('stored');
  return { objectPath: objectPathForKey(imageKey) };
}

/**
 * Sweeps what abandoned uploads leave: raw files whose URL ran out (also ones PUT again after
 * processing; on S3 a lifecycle rule on `uploads/` is the backstop) and processed images
 * nobody posted, whose objects go too unless a meme or another upload shares them.
 */
export async function pruneUploads(
  ctx: UploadContext,
  now: number,
  batch = 200,
): Promise<{ uploads: number; images: number }> {
  const { deps, store } = ctx;
  let uploads = 0;
  for (const { key } of await expiredUploads(deps.db, now - UPLOAD_PROCESS_GRACE_MS, batch)) {
    await store.deleteObject(key);
    await deleteUpload(deps.db, key);
    uploads++;
  }
  let images = 0;
  for (const image of await staleMemeImages(deps.db, now - UNUSED_IMAGE_TTL_MS, batch)) {
    await deleteMemeImage(deps.db, image.id);
    for (const key of [image.image_key, image.thumbnail_key]) {
      if (!(await isObjectReferenced(deps.db, key))) await store.deleteObject(key);
    }
    images++;
  }
  return { uploads, images };
}
