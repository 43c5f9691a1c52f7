import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadBucketCommand,
  PutObjectCommand,
  S3Client,
} from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import type { Readable } from 'node:stream';
import {
  assertValidObjectKey,
  contentTypeForKey,
  isValidObjectKey,
  TooLargeError,
  type ObjectStore,
} from './object-store.ts';
import { systemClock, type Clock } from '../clock.ts';

export interface S3StoreOptions {
  bucket: string;
  /** For S3-compatible stores (MinIO, R2, s3rver...); AWS itself needs none. */
  endpoint?: string;
  region: string;
  /** Both or neither; without them the SDK's default chain (env, profile, instance role) applies. */
  accessKeyId?: string;
  secretAccessKey?: string;
  /** `https://endpoint/bucket/key` instead of `https://bucket.endpoint/key`; most non-AWS stores. */
  forcePathStyle?: boolean;
  /** Clock in epoch ms for URL expiry; the default is the system clock. */
  clock?: Clock;
}

export interface S3Store extends ObjectStore {
  readonly kind: 's3';
  readonly client: S3Client;
}

/** Longest validity SigV4 allows for a presigned URL. */
const MAX_PRESIGN_SECONDS = 7 * 24 * 3600;

function isNotFound(error: unknown): boolean {
  const e = error as { name?: string; $metadata?: { httpStatusCode?: number } };
  return e?.name === 'NoSuchKey' || e?.name === 'NotFound' || e?.$metadata?.httpStatusCode === 404;
}

async function readLimited(body: Readable, maxBytes: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    size += (chunk as Buffer).length;
    // Breaking out of for-await destroys the stream, which aborts the download.
    if (size > maxBytes) throw new TooLargeError(maxBytes);
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks, size);
}

/**
 * The origin browsers PUT presigned uploads to, for the page's CSP `connect-src`: the endpoint
 * itself with path-style URLs, else `<bucket>.<endpoint host>`, and on AWS (no endpoint) the
 * bucket's regional virtual host.
 */
export function s3UploadOrigin(
  opts: Pick<S3StoreOptions, 'bucket' | 'endpoint' | 'region' | 'forcePathStyle'>,
): string {
  if (!opts.endpoint) return `https://${opts.bucket}.s3.${opts.region}.amazonaws.com`;
  const endpoint = new URL(opts.endpoint);
  if (opts.forcePathStyle) return endpoint.origin;
  return `${endpoint.protocol}//${opts.bucket}.${endpoint.host}`;
}

export function createS3Store(opts: S3StoreOptions): S3Store {
  if ((opts.accessKeyId === undefined) !== (opts.secretAccessKey === undefined)) {
    throw new Error('S3 credentials need both an access key id and a secret access key.');
  }
  const forcePathStyle = opts.forcePathStyle ?? false;
  const client = new S3Client({
    region: opts.region,
    forcePathStyle,
    ...(opts.endpoint ? { endpoint: opts.endpoint } : {}),
    ...(opts.accessKeyId && opts.secretAccessKey
      ? {
          credentials: { accessKeyId: opts.accessKeyId, secretAccessKey: opts.secretAccessKey },
        }
      : {}),
    // The SDK's default adds CRC32 checksums, which for a presigned PUT would sign the checksum
    // of an empty body and which several S3-compatible stores reject; send them only when the
    // operation requires one.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
    // A bucket that stops answering fails the call (503 to the client) instead of holding the
    // request: 2 s to connect, 5 s of silence per attempt (docs/decisions/015).
    requestHandler: { connectionTimeout: 2_000, requestTimeout: 5_000 },
  });
  const bucket = opts.bucket;
  const clock = opts.clock ?? systemClock;

  return {
    kind: 's3',
    client,

    async createUploadTarget({ key, expiresAt }) {
      assertValidObjectKey(key);
      // A presigned PUT cannot carry a size range (only a POST policy can), and signing an exact
      // Content-Length would need the size before the file is picked. The byte limit is
      // therefore enforced when the server reads the upload (getObjectBuffer), which deletes
      // anything larger; a lifecycle rule on `uploads/` sweeps what is never processed.
      const signedAt = clock.now();
      const seconds = Math.ceil((expiresAt.getTime() - signedAt) / 1000);
      const expiresIn = Math.min(Math.max(seconds, 1), MAX_PRESIGN_SECONDS);
      const uploadURL = await getSignedUrl(
        client,
        new PutObjectCommand({ Bucket: bucket, Key: key }),
        { expiresIn, signingDate: new Date(signedAt) },
      );
      return { uploadURL };
    },

    keyFromUploadURL(uploadURL) {
      let url: URL;
      try {
        url = new URL(uploadURL);
      } catch {
        return null;
      }
      let path = url.pathname;
      if (forcePathStyle) {
        const prefix = `/${encodeURIComponent(bucket)}/`;
        if (!path.startsWith(prefix)) return null;
        path = path.slice(prefix.length);
      } else {
        path = path.slice(1);
      }
      let key: string;
      try {
        key = decodeURIComponent(path);
      } catch {
        return null;
      }
      return isValidObjectKey(key) ? key : null;
    },

    async readObject(key) {
      assertValidObjectKey(key);
      try {
        const out = await client.send(new GetObjectCommand({ Bucket: bucket, Key: key }));
        if (!out.Body) return null;
        return {
          body: out.Body as Readable,
          // The stored type may have come from a browser's PUT; the key decides what we serve.
          contentType: contentTypeForKey(key),
          size: out.ContentLength ?? 0,
          ...(out.CacheControl ? { cacheControl: out.CacheControl } : {}),
        };
      } catch (error) {
        if (isNotFound(error)) return null;
        throw error;
      }
    },

    async getObjectBuffer(key, maxBytes) {
      assertValidObjectKey(key);
      let body: Readable;
      try {
        const out = await client.send(new GetObjectCommand({ Bucket: bucket, Key: key }));
        if (!out.Body) return null;
        body = out.Body as Readable;
        if ((out.ContentLength ?? 0) > maxBytes) {
          body.destroy();
          throw new TooLargeError(maxBytes);
        }
      } catch (error) {
        if (isNotFound(error)) return null;
        throw error;
      }
      return readLimited(body, maxBytes);
    },

    async putObject(key, body, contentType, cacheControl) {
      assertValidObjectKey(key);
      await client.send(
        new PutObjectCommand({
          Bucket: bucket,
          Key: key,
          Body: body,
          ContentLength: body.length,
          ContentType: contentType,
          CacheControl: cacheControl,
        }),
      );
    },

    async deleteObject(key) {
      assertValidObjectKey(key);
      try {
        await client.send(new DeleteObjectCommand({ Bucket: bucket, Key: key }));
      } catch (error) {
        if (!isNotFound(error)) throw error;
      }
    },

    async check() {
      await client.send(new HeadBucketCommand({ Bucket: bucket }));
    },
  };
}
