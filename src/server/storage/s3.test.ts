import { randomBytes } from 'node:crypto';
import { text } from 'node:stream/consumers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InvalidObjectKeyError, newUploadKey, TooLargeError } from './object-store.ts';
import { createS3Store, s3UploadOrigin, type S3Store, type S3StoreOptions } from './s3.ts';
import { startScratchS3, type ScratchS3 } from '#test-support/scratch.ts';

describe('S3 store against a real S3-protocol server', () => {
  let s3: ScratchS3;
  let options: S3StoreOptions;
  let store: S3Store;

  beforeAll(async () => {
    s3 = await startScratchS3();
    options = s3.config;
    store = createS3Store(options);
  });

  afterAll(async () => {
    store?.client.destroy();
    await s3?.close();
  });

  /** A new upload key and the URL a browser PUTs its file to, valid for `seconds`. */
  async function newUploadTarget(maxBytes: number, seconds = 60) {
    const key = newUploadKey();
    const { uploadURL } = await store.createUploadTarget({
      key,
      maxBytes,
      expiresAt: new Date(Date.now() + seconds * 1000),
    });
    return { key, uploadURL };
  }

  it('is ready once the bucket exists, and not for a missing bucket', async () => {
    await expect(store.check()).resolves.toBeUndefined();
    const missing = createS3Store({ ...options, bucket: 'no-such-bucket' });
    await expect(missing.check()).rejects.toThrow();
    missing.client.destroy();
  });

  it('takes a browser-style PUT of the file at the presigned URL', async () => {
    const { key, uploadURL } = await newUploadTarget(5 * 1024 * 1024, 15 * 60);
    const url = new URL(uploadURL);
    expect(url.searchParams.get('X-Amz-Expires')).toBe('900');
    expect(url.searchParams.has('X-Amz-Signature')).toBe(true);
    // Only the host is signed, so the browser may send whatever Content-Type the file has.
    expect(url.searchParams.get('X-Amz-SignedHeaders')).toBe('host');
    // No checksum of an empty body may be baked into the URL (several stores reject it).
    expect([...url.searchParams.keys()].some((k) => k.toLowerCase().includes('checksum'))).toBe(
      false,
    );

    const body = randomBytes(123_456);
    const res = await fetch(uploadURL, {
      method: 'PUT',
      body,
      headers: { 'content-type': 'image/png' },
    });
    expect(res.status).toBe(200);
    expect(store.keyFromUploadURL(uploadURL)).toBe(key);
    expect((await store.getObjectBuffer(key, 5 * 1024 * 1024))!.equals(body)).toBe(true);
  });

  it('refuses a PUT to a URL that has expired', async () => {
    // s3rver checks a V4 URL's expiry but not its signature, so tampering is AWS's to refuse;
    // what is ours is the expiry we sign.
    const key = newUploadKey();
    // Signed an hour ago for one minute.
    const pastClock = createS3Store({ ...options, clock: { now: () => Date.now() - 3_600_000 } });
    const expired = await pastClock.createUploadTarget({
      key,
      maxBytes: 100,
      expiresAt: new Date(Date.now() - 3_540_000),
    });
    pastClock.client.destroy();
    const res = await fetch(expired.uploadURL, { method: 'PUT', body: 'x' });
    expect(res.status).toBe(403);
    // The spec's upload helper recognises this text.
    expect(await res.text()).toContain('Request has expired');
    expect(await store.readObject(key)).toBeNull();
  });

  it('refuses to hold an upload larger than the limit in memory', async () => {
    const { key, uploadURL } = await newUploadTarget(1000);
    expect((await fetch(uploadURL, { method: 'PUT', body: Buffer.alloc(6000) })).status).toBe(200);
    await expect(store.getObjectBuffer(key, 1000)).rejects.toThrow(TooLargeError);
    expect((await store.getObjectBuffer(key, 6000))!.length).toBe(6000);
  });

  it('stores processed images with their type and cache policy, and deletes them', async () => {
    const key = 'memes/feedface.webp';
    const body = randomBytes(2048);
    await store.putObject(key, body, 'image/webp', 'public, max-age=31536000, immutable');
    const object = await store.readObject(key);
    expect(object).not.toBeNull();
    expect(object!.contentType).toBe('image/webp');
    expect(object!.size).toBe(2048);
    expect(object!.cacheControl).toBe('public, max-age=31536000, immutable');
    const chunks: Buffer[] = [];
    for await (const chunk of object!.body) chunks.push(chunk as Buffer);
    expect(Buffer.concat(chunks).equals(body)).toBe(true);

    await store.deleteObject(key);
    await store.deleteObject(key);
    expect(await store.readObject(key)).toBeNull();
    expect(await store.getObjectBuffer(key, 10_000)).toBeNull();
  });

  it('serves an upload with the type its key implies, not the type the browser sent', async () => {
    const { key, uploadURL } = await newUploadTarget(100);
    await fetch(uploadURL, {
      method: 'PUT',
      body: '<script>alert(1)</script>',
      headers: { 'content-type': 'text/html' },
    });
    const object = await store.readObject(key);
    expect(object!.contentType).toBe('application/octet-stream');
    expect(await text(object!.body)).toBe('<script>alert(1)</script>');
  });

  it('reads keys back only from URLs in its bucket that hold a valid key', () => {
    const base = `${options.endpoint}/${s3.bucket}`;
    expect(store.keyFromUploadURL(`${base}/uploads/abc?X-Amz-Signature=x`)).toBe('uploads/abc');
    expect(store.keyFromUploadURL(`${options.endpoint}/other-bucket/uploads/abc`)).toBeNull();
    expect(store.keyFromUploadURL(`${base}/uploads/..%2f..%2fetc`)).toBeNull();
    expect(store.keyFromUploadURL(`${base}/uploads/a%2fb`)).toBe('uploads/a/b');
    expect(store.keyFromUploadURL('not a url')).toBeNull();
    const vhost = createS3Store({ ...options, forcePathStyle: false });
    expect(vhost.keyFromUploadURL(`https://${s3.bucket}.s3.example/uploads/abc`)).toBe(
      'uploads/abc',
    );
    vhost.client.destroy();
  });

  it('refuses unsafe keys before talking to the server', async () => {
    await expect(store.readObject('../x')).rejects.toThrow(InvalidObjectKeyError);
    await expect(store.putObject('a/../b.png', Buffer.from('x'), 'image/png', '')).rejects.toThrow(
      InvalidObjectKeyError,
    );
    await expect(
      store.createUploadTarget({ key: 'Uploads/X', maxBytes: 1, expiresAt: new Date() }),
    ).rejects.toThrow(InvalidObjectKeyError);
  });

  it('needs both halves of a credential or neither', () => {
    expect(() => createS3Store({ ...options, secretAccessKey: undefined })).toThrow(/both/);
  });
});

describe('s3UploadOrigin', () => {
  it.each([
    ['path-style endpoint', { endpoint: 'http://127.0.0.1:9000', forcePathStyle: true }],
    ['virtual-host endpoint', { endpoint: 'https://r2.example.com', forcePathStyle: false }],
    ['AWS', { endpoint: undefined, forcePathStyle: false }],
  ])('names the origin a presigned URL points at (%s)', async (_, variant) => {
    const options = { bucket: 'memes-bucket', region: 'eu-west-2', ...variant };
    const store = createS3Store({ ...options, accessKeyId: 'k', secretAccessKey: 's' });
    const { uploadURL } = await store.createUploadTarget({
      key: 'uploads/x',
      maxBytes: 1,
      expiresAt: new Date(Date.now() + 60_000),
    });
    store.client.destroy();
    expect(new URL(uploadURL).origin).toBe(s3UploadOrigin(options));
  });
});
