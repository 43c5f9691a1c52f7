import { createHash, randomUUID } from 'node:crypto';
import type { Readable } from 'node:stream';

/**
 * One interface for every place images live (local disk by default, any S3-compatible bucket in
 * production). Keys are always made by the server (see `newUploadKey` / `contentAddressedKey`);
 * every store re-validates them with `assertValidObjectKey`, so a key can never name a path
 * outside the store even if a caller forgets to check.
 */
export interface ObjectStore {
  readonly kind: 'local' | 's3';
  /** A URL the browser PUTs the raw file to: one key, expiring; the route layer makes it one-time. */
  createUploadTarget(opts: UploadTargetOptions): Promise<UploadTarget>;
  /** The key an uploadURL issued by this store points at, or null when it is not one of ours. */
  keyFromUploadURL(uploadURL: string): string | null;
  readObject(key: string): Promise<StoredObject | null>;
  /** Whole object in memory, refused with `TooLargeError` beyond `maxBytes`; null when missing. */
  getObjectBuffer(key: string, maxBytes: number): Promise<Buffer | null>;
  putObject(key: string, body: Buffer, contentType: string, cacheControl: string): Promise<void>;
  /** Idempotent: deleting a missing object succeeds. */
  deleteObject(key: string): Promise<void>;
  /** Readiness: resolves when the store can be written to and read from, else rejects. */
  check(): Promise<void>;
  /** Releases connections (S3's HTTP agent); the app calls it when it closes. */
  close?(): Promise<void>;
}

interface UploadTargetOptions {
  key: string;
  maxBytes: number;
  expiresAt: Date;
}

interface UploadTarget {
  uploadURL: string;
}

interface StoredObject {
  body: Readable;
  contentType: string;
  size: number;
  /** Set when the store keeps it with the object (S3); the serving route decides otherwise. */
  cacheControl?: string;
}

/** Beyond the byte limit of an upload or a read; maps to HTTP 413. */
export class TooLargeError extends Error {
  readonly status = 413;
  constructor(readonly maxBytes: number) {
    super(`The file is larger than the limit of ${maxBytes} bytes.`);
    this.name = 'TooLargeError';
  }
}

/** Keys are written once; a second write to the same key is refused (one-time upload URLs). */
export class ObjectExistsError extends Error {
  readonly status = 409;
  constructor(readonly key: string) {
    super('This upload has already been used.');
    this.name = 'ObjectExistsError';
  }
}

export class InvalidObjectKeyError extends Error {
  readonly status = 400;
  constructor() {
    super('Invalid object key.');
    this.name = 'InvalidObjectKeyError';
  }
}

/**
 * One to three lowercase segments, each starting with a letter or digit, the last with at most
 * one extension. No dots except that one, so no `..`, no hidden files, no absolute paths, no
 * backslashes or percent escapes: a key is a safe relative path and a safe URL path as it is.
 */
const OBJECT_KEY_PATTERN =
  /^(?:[a-z0-9][a-z0-9_-]{0,63}\/){0,2}[a-z0-9][a-z0-9_-]{0,127}(?:\.[a-z0-9]{1,8})?$/;

export function isValidObjectKey(key: unknown): key is string {
  return typeof key === 'string' && key.length <= 256 && OBJECT_KEY_PATTERN.test(key);
}

export function assertValidObjectKey(key: unknown): asserts key is string {
  if (!isValidObjectKey(key)) throw new InvalidObjectKeyError();
}

const UPLOAD_KEY_PREFIX = 'uploads';

/** Where a raw, unchecked upload lands before processing: random, never derived from input. */
export function newUploadKey(): string {
  return `${UPLOAD_KEY_PREFIX}/${randomUUID()}`;
}

export function isUploadKey(key: string): boolean {
  return isValidObjectKey(key) && key.startsWith(`${UPLOAD_KEY_PREFIX}/`);
}

/**
 * Processed images are named by their bytes, so they can be cached forever and a CDN never
 * serves a stale copy; `variant` separates the display image from its thumbnail.
 */
export function contentAddressedKey(
  prefix: string,
  body: Buffer,
  ext: string,
  variant?: string,
): string {
  const hash = createHash('sha256').update(body).digest('hex');
  const key = `${prefix}/${hash}${variant ? `-${variant}` : ''}.${ext}`;
  assertValidObjectKey(key);
  return key;
}

const CONTENT_TYPES_BY_EXT: Readonly<Record<string, string>> = {
  jpg: 'image/jpeg',
  png: 'image/png',
  gif: 'image/gif',
  webp: 'image/webp',
};

/**
 * The type an object is served with follows from its server-made key, never from what was
 * uploaded; anything not a known image extension is opaque bytes, so it can never be HTML.
 */
export function contentTypeForKey(key: string): string {
  const dot = key.lastIndexOf('.');
  const ext = dot === -1 ? '' : key.slice(dot + 1);
  return CONTENT_TYPES_BY_EXT[ext] ?? 'application/octet-stream';
}
