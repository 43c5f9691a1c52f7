import sharp, { type Metadata, type SharpOptions } from 'sharp';
import { FairQueue } from './fair-queue.ts';
import { perceptualHash } from './perceptual-hash.ts';

/**
 * The one place untrusted image bytes are interpreted. The type is decided by the bytes (magic
 * number, then the decoder must agree), size is bounded before anything is decoded, and every
 * output is a fresh encode, so nothing the uploader put in the file besides pixels (EXIF, GPS,
 * XMP, ICC, text chunks, trailing data) survives.
 */

export interface ImageLimits {
  /** Bytes of the uploaded file. */
  maxInputBytes: number;
  /** width x height (x frames for animations), checked from the header before decoding. */
  maxInputPixels: number;
  maxFrames: number;
  /** The display image fits inside this box; smaller images are never enlarged. */
  maxDisplayWidth: number;
  maxDisplayHeight: number;
  thumbnailWidth: number;
  thumbnailMaxHeight: number;
  /** Wall-clock cap per encode, against inputs that are small but slow to decode. */
  timeoutSeconds: number;
}

const DEFAULT_IMAGE_LIMITS: Readonly<ImageLimits> = {
  maxInputBytes: 5 * 1024 * 1024,
  maxInputPixels: 40_000_000,
  maxFrames: 300,
  maxDisplayWidth: 1600,
  maxDisplayHeight: 4000,
  thumbnailWidth: 400,
  thumbnailMaxHeight: 1000,
  timeoutSeconds: 20,
};

export type ImageKind = 'jpeg' | 'png' | 'gif';

export interface ProcessedImage {
  kind: ImageKind;
  /** Perceptual hash of the (first frame of the) picture, for catching reposts. */
  phash: string;
  display: {
    buffer: Buffer;
    contentType: 'image/jpeg' | 'image/png' | 'image/gif';
    ext: 'jpg' | 'png' | 'gif';
    width: number;
    /** Height of one frame for animations. */
    height: number;
    frames: number;
  };
  thumbnail: {
    buffer: Buffer;
    contentType: 'image/webp';
    ext: 'webp';
    width: number;
    height: number;
  };
}

export type ImageErrorCode = 'unsupported_image' | 'image_too_large' | 'corrupt_image';

/** A refusal the uploader caused; `status` and `message` go to the client as they are. */
export abstract class ImageRejectedError extends Error {
  constructor(
    readonly status: 400 | 413 | 415,
    readonly code: ImageErrorCode,
    message: string,
  ) {
    super(message);
    this.name = new.target.name;
  }
}

export class UnsupportedImageError extends ImageRejectedError {
  constructor(message = 'Only JPG, PNG and GIF images can be uploaded.') {
    super(415, 'unsupported_image', message);
  }
}

export class ImageTooLargeError extends ImageRejectedError {
  constructor(message: string) {
    super(413, 'image_too_large', message);
  }
}

export class CorruptImageError extends ImageRejectedError {
  constructor(message = 'The image file is damaged or incomplete.') {
    super(400, 'corrupt_image', message);
  }
}

const FORMATS = {
  jpeg: { contentType: 'image/jpeg', ext: 'jpg' },
  png: { contentType: 'image/png', ext: 'png' },
  gif: { contentType: 'image/gif', ext: 'gif' },
} as const;

function startsWith(bytes: Uint8Array, prefix: readonly number[]): boolean {
  return bytes.length >= prefix.length && prefix.every((b, i) => bytes[i] === b);
}

/** The image type by magic number only; names and claimed types are never consulted. */
export function sniffImageType(bytes: Uint8Array): ImageKind | null {
  if (startsWith(bytes, [0xff, 0xd8, 0xff])) return 'jpeg';
  if (startsWith(bytes, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'png';
  // "GIF87a" or "GIF89a"
  if (
    startsWith(bytes, [0x47, 0x49, 0x46, 0x38]) &&
    (bytes[4] === 0x37 || bytes[4] === 0x39) &&
    bytes[5] === 0x61
  ) {
    return 'gif';
  }
  return null;
}

function megabytes(bytes: number): string {
  return `${Math.round((bytes / (1024 * 1024)) * 10) / 10} MB`;
}

/** Maps libvips failures on untrusted input to a client error; never a 5xx for bad bytes. */
function rejection(error: unknown, limits: ImageLimits): ImageRejectedError {
  if (error instanceof ImageRejectedError) return error;
  const message = error instanceof Error ? error.message : String(error);
  if (/pixel limit/i.test(message)) return tooManyPixels(limits);
  if (/timeout/i.test(message)) {
    return new ImageTooLargeError('The image is too complex to process. Try a smaller one.');
  }
  return new CorruptImageError();
}

function tooManyPixels(limits: ImageLimits): ImageTooLargeError {
  return new ImageTooLargeError(
    `The image has too many pixels: at most ${limits.maxInputPixels / 1_000_000} megapixels.`,
  );
}

export async function processImage(
  input: Buffer,
  overrides: Partial<ImageLimits> = {},
): Promise<ProcessedImage> {
  const limits: ImageLimits = { ...DEFAULT_IMAGE_LIMITS, ...overrides };
  if (input.length > limits.maxInputBytes) {
    throw new ImageTooLargeError(`The image is larger than ${megabytes(limits.maxInputBytes)}.`);
  }
  const kind = sniffImageType(input);
  if (!kind) throw new UnsupportedImageError();

  const animated = kind === 'gif';
  const inputOptions: SharpOptions = {
    limitInputPixels: limits.maxInputPixels,
    // 'warning' is sharp's advice for untrusted input: a truncated or damaged file is refused
    // instead of being decoded into grey blocks.
    failOn: 'warning',
    limitInputChannels: 4,
  };

  // The header alone: dimensions and frame count are known before any pixel is decoded.
  let meta: Metadata;
  try {
    meta = await sharp(input, { ...inputOptions, animated }).metadata();
  } catch (error) {
    throw rejection(error, limits);
  }
  if (meta.format !== kind) throw new UnsupportedImageError();
  const frames = animated ? Math.max(meta.pages ?? 1, 1) : 1;
  const frameHeight = animated ? (meta.pageHeight ?? meta.height) : meta.height;
  if (!(meta.width > 0) || !(frameHeight > 0)) throw new CorruptImageError();
  if (meta.width * frameHeight * frames > limits.maxInputPixels) throw tooManyPixels(limits);
  if (frames > limits.maxFrames) {
    throw new ImageTooLargeError(`The animation has more than ${limits.maxFrames} frames.`);
  }

  const timeout = { seconds: limits.timeoutSeconds };
  try {
    // autoOrient applies EXIF orientation to the pixels before the EXIF block is dropped, so
    // phone photos keep their intended rotation.
    const display = sharp(input, { ...inputOptions, animated, autoOrient: true })
      .resize({
        width: limits.maxDisplayWidth,
        height: limits.maxDisplayHeight,
        fit: 'inside',
        withoutEnlargement: true,
      })
      .timeout(timeout);
    const encoded =
      kind === 'jpeg'
        ? display.jpeg({ quality: 85, progressive: true })
        : kind === 'png'
          ? display.png({ compressionLevel: 8 })
          : display.gif({ effort: 7 });

    const thumbnail = sharp(input, { ...inputOptions, pages: 1, autoOrient: true })
      .resize({
        width: limits.thumbnailWidth,
        height: limits.thumbnailMaxHeight,
        fit: 'inside',
        withoutEnlargement: true,
      })
      .webp({ quality: 78 })
      .timeout(timeout);

    const [displayOut, thumbOut, phash] = await Promise.all([
      encoded.toBuffer({ resolveWithObject: true }),
      thumbnail.toBuffer({ resolveWithObject: true }),
      // Only once the header checks above have passed, under the same decode limits.
      perceptualHash(input, inputOptions),
    ]);
    const displayFrames = animated ? (displayOut.info.pages ?? frames) : 1;
    return {
      kind,
      phash,
      display: {
        buffer: displayOut.data,
        ...FORMATS[kind],
        width: displayOut.info.width,
        height: animated
          ? (displayOut.info.pageHeight ?? displayOut.info.height / displayFrames)
          : displayOut.info.height,
        frames: displayFrames,
      },
      thumbnail: {
        buffer: thumbOut.data,
        contentType: 'image/webp',
        ext: 'webp',
        width: thumbOut.info.width,
        height: thumbOut.info.height,
      },
    };
  } catch (error) {
    throw rejection(error, limits);
  }
}

export interface ImageProcessor {
  /** Takes a place in the line for `member` (throws QueueFullError when there is none). */
  enter(member: string): { process(input: Buffer): Promise<ProcessedImage>; cancel(): void };
  /** Places held: running plus waiting. */
  readonly pending: number;
  /** Jobs running now (the rest of `pending` waits). */
  readonly running: number;
}

/**
 * `processImage` behind a fair line (fair-queue.ts): decoding is memory- and CPU-heavy, so a
 * burst waits its turn, no member runs two at once, and a full line refuses at once.
 */
export function createImageProcessor(
  opts: {
    concurrency?: number;
    perMember?: number;
    total?: number;
    limits?: Partial<ImageLimits>;
    /** The work itself; tests wrap `processImage` to watch the queue. */
    run?: (input: Buffer, limits?: Partial<ImageLimits>) => Promise<ProcessedImage>;
    /** Told each job's time in seconds, its wait in the line excluded (/metrics). */
    timed?: (seconds: number) => void;
  } = {},
): ImageProcessor {
  const work = opts.run ?? processImage;
  const { timed } = opts;
  const run = !timed
    ? work
    : async (input: Buffer, limits?: Partial<ImageLimits>) => {
        const started = performance.now();
        try {
          return await work(input, limits);
        } finally {
          timed((performance.now() - started) / 1000);
        }
      };
  const queue = new FairQueue({
    concurrency: Math.max(1, opts.concurrency ?? 2),
    perMember: opts.perMember ?? 2,
    total: opts.total ?? 12,
    retryAfterSeconds: 15,
  });
  return {
    get pending() {
      return queue.pending;
    },
    get running() {
      return queue.active;
    },
    enter(member) {
      const place = queue.enter(member);
      return {
        process: (input) => place.run(() => run(input, opts.limits)),
        cancel: () => place.cancel(),
      };
    },
  };
}
