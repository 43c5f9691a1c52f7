import { objectPaths } from '#shared/api/paths.ts';
import { createHmac, randomUUID, timingSafeEqual } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { link, mkdir, open, readFile, rename, rm, stat, unlink, writeFile } from 'node:fs/promises';
import { dirname, join, resolve, sep } from 'node:path';
import { PassThrough, Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import {
  assertValidObjectKey,
  contentTypeForKey,
  isValidObjectKey,
  ObjectExistsError,
  TooLargeError,
  type ObjectStore,
} from './object-store.ts';
import { systemClock, type Clock } from '../clock.ts';

/** The route that receives a local upload: `PUT ${LOCAL_UPLOAD_ROUTE_PREFIX}<token>`. */
const LOCAL_UPLOAD_ROUTE_PREFIX = objectPaths.localUploadPrefix;

export interface UploadTokenPayload {
  key: string;
  maxBytes: number;
  /** Expiry, epoch milliseconds. */
  exp: number;
}

export type UploadTokenCheck =
  | { ok: true; payload: UploadTokenPayload }
  | { ok: false; reason: 'malformed' | 'bad-signature' | 'expired' };

// A distinct label so an HMAC made with the same secret for another purpose (sessions, visitor
// cookies) can never be replayed as an upload token.
const TOKEN_CONTEXT = 'daily-grind/upload-token/v1';

function hmac(secret: string | Buffer, body: string): Buffer {
  return createHmac('sha256', secret).update(TOKEN_CONTEXT).update('\0').update(body).digest();
}

/** `<base64url(JSON payload)>.<base64url(HMAC-SHA256)>`, safe as a single URL path segment. */
export function signUploadToken(payload: UploadTokenPayload, secret: string | Buffer): string {
  assertValidObjectKey(payload.key);
  const body = Buffer.from(
    JSON.stringify({ k: payload.key, m: payload.maxBytes, e: payload.exp }),
  ).toString('base64url');
  return `${body}.${hmac(secret, body).toString('base64url')}`;
}

/**
 * Checks signature, shape and (when `nowMs` is given) expiry. The signature is compared in
 * constant time before the payload is trusted or parsed. Pass `nowMs: null` to accept an
 * expired token, e.g. to find the key of an upload that finished before the link ran out.
 */
export function verifyUploadToken(
  token: string,
  secret: string | Buffer,
  nowMs: number | null,
): UploadTokenCheck {
  if (typeof token !== 'string' || token.length > 1024) return { ok: false, reason: 'malformed' };
  const match = /^([A-Za-z0-9_-]+)\.([A-Za-z0-9_-]{43})$/.exec(token);
  if (!match) return { ok: false, reason: 'malformed' };
  const [, body, signature] = match as unknown as [string, string, string];
  // Compare the text, not decoded bytes: base64url's last character carries spare bits that
  // a decoder ignores, so several strings would decode to one signature and a token could be
  // varied without the secret.
  const given = Buffer.from(signature, 'ascii');
  const expected = Buffer.from(hmac(secret, body).toString('base64url'), 'ascii');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
    return { ok: false, reason: 'bad-signature' };
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(body, 'base64url').toString('utf8'));
  } catch {
    return { ok: false, reason: 'malformed' };
  }
  if (typeof parsed !== 'object' || parsed === null) return { ok: false, reason: 'malformed' };
  const { k, m, e } = parsed as Record<string, unknown>;
  if (
    !isValidObjectKey(k) ||
    typeof m !== 'number' ||
    !Number.isSafeInteger(m) ||
    m < 0 ||
    typeof e !== 'number' ||
    !Number.isSafeInteger(e)
  ) {
    return { ok: false, reason: 'malformed' };
  }
  if (nowMs !== null && nowMs >= e) return { ok: false, reason: 'expired' };
  return { ok: true, payload: { key: k, maxBytes: m, exp: e } };
}

export interface LocalDiskStoreOptions {
  /** Objects live under `<dataDir>/objects`. */
  dataDir: string;
  /** HMAC key for upload tokens; at least 32 bytes of entropy. */
  secret: string | Buffer;
  /** Origin prefixed to upload URLs (e.g. `https://example.com`); relative URLs when absent. */
  publicBaseUrl?: string;
  /** Clock in epoch ms; tests pass a fixed one. */
  clock?: Clock;
}

export interface LocalDiskStore extends ObjectStore {
  readonly kind: 'local';
  readonly objectsDir: string;
  /** Checks an upload token against this store's secret and clock. */
  verifyUploadToken(token: string): UploadTokenCheck;
  /**
   * Streams `source` to the object `key`, at most `maxBytes`. Writes go to a temp file that is
   * linked into place only when complete, so a reader never sees half a file and a failed or
   * oversized upload leaves nothing behind. Refuses with `ObjectExistsError` if `key` exists.
   * On `TooLargeError` the source is unpiped and paused but not destroyed, so an HTTP handler
   * can still answer 413 (with `Connection: close`) instead of resetting the socket.
   */
  writeUploadStream(key: string, source: Readable, maxBytes: number): Promise<{ size: number }>;
}

export function createLocalDiskStore(opts: LocalDiskStoreOptions): LocalDiskStore {
  const objectsDir = resolve(opts.dataDir, 'objects');
  // Inside objectsDir so rename/link stay on one filesystem; keys cannot start with a dot.
  const tmpDir = join(objectsDir, '.tmp');
  const clock = opts.clock ?? systemClock;
  const base = (opts.publicBaseUrl ?? '').replace(/\/+$/, '');
  if (Buffer.byteLength(opts.secret) < 32) {
    throw new Error('The upload token secret must be at least 32 bytes.');
  }

  function pathFor(key: string): string {
    assertValidObjectKey(key);
    const full = join(objectsDir, ...key.split('/'));
    // Belt and braces: the key pattern already rules out anything that leaves the folder.
    if (!full.startsWith(objectsDir + sep)) throw new Error('Object path escapes the store.');
    return full;
  }

  async function tempFile(): Promise<string> {
    await mkdir(tmpDir, { recursive: true });
    return join(tmpDir, randomUUID());
  }

  /**
   * Moves a complete temp file to its final name without ever replacing an existing object:
   * link() fails with EEXIST atomically, which a check-then-rename could not guarantee.
   */
  async function publish(tmp: string, key: string, overwrite: boolean): Promise<void> {
    const target = pathFor(key);
    await mkdir(dirname(target), { recursive: true });
    if (overwrite) {
      await rename(tmp, target);
      return;
    }
    try {
      await link(tmp, target);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'EEXIST') throw new ObjectExistsError(key);
      // A few filesystems (some network and FUSE mounts) have no hard links; there the
      // existence check narrows the window and the route's one-time row closes it.
      if (code !== 'EPERM' && code !== 'ENOTSUP' && code !== 'ENOSYS') throw error;
      if (await statFile(key)) throw new ObjectExistsError(key);
      await rename(tmp, target);
    } finally {
      await rm(tmp, { force: true });
    }
  }

  async function statFile(key: string) {
    try {
      const info = await stat(pathFor(key));
      return info.isFile() ? info : null;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw error;
    }
  }

  return {
    kind: 'local',
    objectsDir,

    async createUploadTarget({ key, maxBytes, expiresAt }) {
      const token = signUploadToken({ key, maxBytes, exp: expiresAt.getTime() }, opts.secret);
      return { uploadURL: `${base}${LOCAL_UPLOAD_ROUTE_PREFIX}${token}` };
    },

    keyFromUploadURL(uploadURL) {
      let pathname: string;
      try {
        pathname = new URL(uploadURL, 'http://local.invalid').pathname;
      } catch {
        return null;
      }
      if (!pathname.startsWith(LOCAL_UPLOAD_ROUTE_PREFIX)) return null;
      const check = verifyUploadToken(
        pathname.slice(LOCAL_UPLOAD_ROUTE_PREFIX.length),
        opts.secret,
        null,
      );
      return check.ok ? check.payload.key : null;
    },

    verifyUploadToken(token) {
      return verifyUploadToken(token, opts.secret, clock.now());
    },

    async writeUploadStream(key, source, maxBytes) {
      const target = pathFor(key);
      if (await statFile(key)) throw new ObjectExistsError(key);
      await mkdir(dirname(target), { recursive: true });
      const tmp = await tempFile();
      // Opened here, not by the write stream: a stream opening its own file could create it
      // after a request that failed at once had been cleaned up, and leave it behind.
      const file = await open(tmp, 'wx');
      let size = 0;
      const counter = new Transform({
        transform(chunk: Buffer, _encoding, callback) {
          size += chunk.length;
          if (size > maxBytes) callback(new TooLargeError(maxBytes));
          else callback(null, chunk);
        },
      });
      // pipeline() destroys every stream on failure; a guard between the source and the
      // pipeline keeps an HTTP request alive so its handler can still send a 413.
      const guard = new PassThrough();
      const onSourceError = (error: Error) => guard.destroy(error);
      // An aborted request may close without an error; without this the write would hang.
      const onSourceClose = () => {
        if (!source.readableEnded) guard.destroy(new Error('The upload was interrupted.'));
      };
      source.on('error', onSourceError);
      source.on('close', onSourceClose);
      // The request may have gone while the file was being opened.
      if (source.destroyed) onSourceClose();
      source.pipe(guard);
      try {
        await pipeline(guard, counter, file.createWriteStream());
      } catch (error) {
        source.unpipe(guard);
        if (!source.destroyed) source.pause();
        await rm(tmp, { force: true });
        throw error;
      } finally {
        source.off('error', onSourceError);
        source.off('close', onSourceClose);
      }
      await publish(tmp, key, false);
      return { size };
    },

    async readObject(key) {
      const info = await statFile(key);
      if (!info) return null;
      return {
        body: createReadStream(pathFor(key)),
        contentType: contentTypeForKey(key),
        size: info.size,
      };
    },

    async getObjectBuffer(key, maxBytes) {
      const info = await statFile(key);
      if (!info) return null;
      if (info.size > maxBytes) throw new TooLargeError(maxBytes);
      const body = await readFile(pathFor(key));
      // The file could have been replaced between stat and read; the limit is on what we hold.
      if (body.length > maxBytes) throw new TooLargeError(maxBytes);
      return body;
    },

    async putObject(key, body, contentType) {
      // Local objects are served with the type their key implies; a mismatch is a caller bug
      // that would otherwise surface as images served with the wrong type.
      if (contentTypeForKey(key) !== contentType) {
        throw new Error(`Content type ${contentType} does not match the key ${key}.`);
      }
      pathFor(key);
      const tmp = await tempFile();
      try {
        await writeFile(tmp, body, { flag: 'wx' });
        await publish(tmp, key, true);
      } catch (error) {
        await rm(tmp, { force: true });
        throw error;
      }
    },

    async deleteObject(key) {
      try {
        await unlink(pathFor(key));
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
      }
    },

    async check() {
      const probe = await tempFile();
      await writeFile(probe, 'ok', { flag: 'wx' });
      try {
        if ((await readFile(probe, 'utf8')) !== 'ok') throw new Error('Object store probe failed.');
      } finally {
        await rm(probe, { force: true });
      }
    },
  };
}
