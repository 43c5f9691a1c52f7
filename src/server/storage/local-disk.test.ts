import { objectPaths } from '#shared/api/paths.ts';
import { createHmac, randomBytes } from 'node:crypto';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { text } from 'node:stream/consumers';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { closeHttpServer, listenOnLoopback } from '#test-support/loopback.ts';
import {
  createLocalDiskStore,
  signUploadToken,
  verifyUploadToken,
  type LocalDiskStore,
} from './local-disk.ts';
import {
  InvalidObjectKeyError,
  newUploadKey,
  ObjectExistsError,
  TooLargeError,
} from './object-store.ts';

const SECRET = 'test-secret-that-is-at-least-32-bytes-long!';
const FIVE_MB = 5 * 1024 * 1024;
const T0 = Date.UTC(2025, 0, 1, 12, 0, 0);

async function listFilesRecursively(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries.filter((e) => e.isFile()).map((e) => join(e.parentPath, e.name));
}

describe('upload tokens', () => {
  const payload = { key: 'uploads/abc-123', maxBytes: FIVE_MB, exp: T0 + 60_000 };

  it('round-trips a signed payload before expiry', () => {
    const token = signUploadToken(payload, SECRET);
    expect(token).toMatch(/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]{43}$/);
    expect(verifyUploadToken(token, SECRET, T0)).toEqual({ ok: true, payload });
    expect(verifyUploadToken(token, SECRET, T0 + 59_999).ok).toBe(true);
  });

  it('refuses a token at and after its expiry by the injected clock', () => {
    const token = signUploadToken(payload, SECRET);
    expect(verifyUploadToken(token, SECRET, T0 + 60_000)).toEqual({ ok: false, reason: 'expired' });
    expect(verifyUploadToken(token, SECRET, T0 + 3_600_000)).toEqual({
      ok: false,
      reason: 'expired',
    });
    // Finding the key of an upload after the link ran out is still possible on purpose.
    expect(verifyUploadToken(token, SECRET, null).ok).toBe(true);
  });

  it('refuses a token signed with another secret', () => {
    const token = signUploadToken(payload, 'another-secret-that-is-32-bytes-long!!');
    expect(verifyUploadToken(token, SECRET, T0)).toEqual({ ok: false, reason: 'bad-signature' });
  });

  it('refuses a payload changed after signing (longer limit, other key, later expiry)', () => {
    const token = signUploadToken(payload, SECRET);
    const signature = token.split('.')[1];
    for (const forged of [
      { k: payload.key, m: FIVE_MB * 100, e: payload.exp },
      { k: 'uploads/someone-else', m: FIVE_MB, e: payload.exp },
      { k: payload.key, m: FIVE_MB, e: payload.exp + 86_400_000 },
    ]) {
      const body = Buffer.from(JSON.stringify(forged)).toString('base64url');
      expect(verifyUploadToken(`${body}.${signature}`, SECRET, T0)).toEqual({
        ok: false,
        reason: 'bad-signature',
      });
    }
  });

  it('refuses every other spelling of the signature, including the spare bits of its last character', () => {
    const token = signUploadToken(payload, SECRET);
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
    const variants = [...alphabet]
      .filter((c) => c !== token.at(-1))
      .map((c) => token.slice(0, -1) + c);
    // Flipping only the two unused low bits decodes to the same bytes; it must still fail.
    expect(variants).toHaveLength(63);
    for (const variant of variants) {
      expect(verifyUploadToken(variant, SECRET, T0)).toEqual({
        ok: false,
        reason: 'bad-signature',
      });
    }
  });

  it.each([
    ['empty', ''],
    ['dot only', '.'],
    ['no signature', 'abc'],
    ['short signature', 'a.b'],
    ['over 1024 characters', `${'a'.repeat(2000)}.${'b'.repeat(43)}`],
    ['slash', 'a/b.c'],
    ['dots', '../x.y'],
  ])('refuses a malformed token (%s)', (_name, token) => {
    expect(verifyUploadToken(token, SECRET, T0)).toEqual({ ok: false, reason: 'malformed' });
  });

  it('refuses a correctly signed payload of the wrong shape', () => {
    for (const shape of [
      '[]',
      '"x"',
      '{"k":"../etc","m":1,"e":1}',
      '{"k":"uploads/a","m":"1","e":1}',
    ]) {
      const body = Buffer.from(shape).toString('base64url');
      const signature = createHmac('sha256', SECRET)
        .update('daily-grind/upload-token/v1')
        .update('\0')
        .update(body)
        .digest('base64url');
      expect(verifyUploadToken(`${body}.${signature}`, SECRET, 0)).toEqual({
        ok: false,
        reason: 'malformed',
      });
    }
  });

  it('will not sign a key outside the allowed pattern', () => {
    expect(() => signUploadToken({ ...payload, key: '../../etc/passwd' }, SECRET)).toThrow(
      InvalidObjectKeyError,
    );
  });
});

describe('local disk store', () => {
  let dataDir: string;
  let store: LocalDiskStore;
  let clock: number;

  beforeEach(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'local-store-'));
    clock = T0;
    store = createLocalDiskStore({
      dataDir,
      secret: SECRET,
      publicBaseUrl: 'https://grind.example/',
      clock: { now: () => clock },
    });
  });

  afterEach(async () => {
    await rm(dataDir, { recursive: true, force: true });
  });

  it('refuses a short secret', () => {
    expect(() => createLocalDiskStore({ dataDir, secret: 'short' })).toThrow(/32 bytes/);
  });

  it('issues an upload URL on this server that expires by its clock', async () => {
    const key = newUploadKey();
    const { uploadURL } = await store.createUploadTarget({
      key,
      maxBytes: FIVE_MB,
      expiresAt: new Date(T0 + 15 * 60_000),
    });
    expect(uploadURL.startsWith(`https://grind.example${objectPaths.localUploadPrefix}`)).toBe(
      true,
    );
    const token = uploadURL.slice(`https://grind.example${objectPaths.localUploadPrefix}`.length);
    expect(store.verifyUploadToken(token)).toMatchObject({ ok: true, payload: { key } });
    clock = T0 + 15 * 60_000;
    expect(store.verifyUploadToken(token)).toEqual({ ok: false, reason: 'expired' });
    // The key can still be read back from the URL once the upload is done.
    expect(store.keyFromUploadURL(uploadURL)).toBe(key);
  });

  it('makes relative upload URLs without a public base and reads keys back only from its own', async () => {
    const local = createLocalDiskStore({ dataDir, secret: SECRET });
    const key = newUploadKey();
    const { uploadURL } = await local.createUploadTarget({
      key,
      maxBytes: 10,
      expiresAt: new Date(Date.now() + 60_000),
    });
    expect(uploadURL.startsWith(objectPaths.localUploadPrefix)).toBe(true);
    expect(local.keyFromUploadURL(uploadURL)).toBe(key);
    const other = createLocalDiskStore({ dataDir, secret: 'x'.repeat(40) });
    expect(other.keyFromUploadURL(uploadURL)).toBeNull();
    expect(local.keyFromUploadURL('/objects/uploads/abc')).toBeNull();
    expect(local.keyFromUploadURL('https://evil.example/elsewhere')).toBeNull();
    expect(local.keyFromUploadURL(`${objectPaths.localUploadPrefix}not-a-token`)).toBeNull();
  });

  it('streams an upload to disk and reads it back', async () => {
    const key = newUploadKey();
    const bytes = randomBytes(300_000);
    const result = await store.writeUploadStream(key, Readable.from([bytes]), FIVE_MB);
    expect(result.size).toBe(bytes.length);
    const object = await store.readObject(key);
    expect(object).not.toBeNull();
    expect(object!.size).toBe(bytes.length);
    expect(object!.contentType).toBe('application/octet-stream');
    const chunks: Buffer[] = [];
    for await (const chunk of object!.body) chunks.push(chunk as Buffer);
    expect(Buffer.concat(chunks).equals(bytes)).toBe(true);
    expect((await store.getObjectBuffer(key, FIVE_MB))!.equals(bytes)).toBe(true);
    expect(await listFilesRecursively(join(dataDir, 'objects', '.tmp'))).toEqual([]);
  });

  it('accepts exactly the limit and refuses one byte more, leaving nothing behind', async () => {
    const exact = newUploadKey();
    await store.writeUploadStream(exact, Readable.from([Buffer.alloc(1000)]), 1000);
    expect((await store.getObjectBuffer(exact, 1000))!.length).toBe(1000);

    const over = newUploadKey();
    const chunks = Array.from({ length: 7 }, () => Buffer.alloc(1024 * 1024, 1)); // 7 MB
    await expect(store.writeUploadStream(over, Readable.from(chunks), FIVE_MB)).rejects.toThrow(
      TooLargeError,
    );
    expect(await store.readObject(over)).toBeNull();
    const files = await listFilesRecursively(join(dataDir, 'objects'));
    expect(files).toEqual([join(dataDir, 'objects', ...exact.split('/'))]);
  });

  it('never writes a key twice, also when two uploads race', async () => {
    const key = newUploadKey();
    await store.writeUploadStream(key, Readable.from([Buffer.from('first')]), 100);
    await expect(
      store.writeUploadStream(key, Readable.from([Buffer.from('second')]), 100),
    ).rejects.toThrow(ObjectExistsError);
    expect((await store.getObjectBuffer(key, 100))!.toString()).toBe('first');

    const raced = newUploadKey();
    const results = await Promise.allSettled(
      ['a', 'b', 'c', 'd'].map((v) =>
        store.writeUploadStream(raced, Readable.from([Buffer.from(v.repeat(50_000))]), 1e6),
      ),
    );
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    for (const r of results.filter((r) => r.status === 'rejected')) {
      expect((r as PromiseRejectedResult).reason).toBeInstanceOf(ObjectExistsError);
    }
    const stored = (await store.getObjectBuffer(raced, 1e6))!.toString();
    expect(stored).toMatch(/^(a+|b+|c+|d+)$/);
    expect(stored).toHaveLength(50_000);
    expect(await listFilesRecursively(join(dataDir, 'objects', '.tmp'))).toEqual([]);
  });

  it('cleans up when the source fails halfway', async () => {
    const key = newUploadKey();
    const source = new Readable({ read() {} });
    source.push(Buffer.alloc(10_000));
    const writing = store.writeUploadStream(key, source, FIVE_MB);
    setTimeout(() => source.destroy(new Error('client went away')), 20);
    await expect(writing).rejects.toThrow('client went away');
    expect(await store.readObject(key)).toBeNull();
    expect(await listFilesRecursively(join(dataDir, 'objects'))).toEqual([]);
  });

  it('refuses keys that could leave the store on every operation', async () => {
    const bad = '../outside';
    await expect(store.readObject(bad)).rejects.toThrow(InvalidObjectKeyError);
    await expect(store.getObjectBuffer(bad, 10)).rejects.toThrow(InvalidObjectKeyError);
    await expect(store.deleteObject(bad)).rejects.toThrow(InvalidObjectKeyError);
    await expect(
      store.putObject('memes/../../x.png', Buffer.from('x'), 'image/png', 'no-cache'),
    ).rejects.toThrow(InvalidObjectKeyError);
    await expect(
      store.writeUploadStream('/etc/passwd', Readable.from([Buffer.from('x')]), 10),
    ).rejects.toThrow(InvalidObjectKeyError);
    await expect(
      store.createUploadTarget({ key: 'uploads/../x', maxBytes: 1, expiresAt: new Date() }),
    ).rejects.toThrow(InvalidObjectKeyError);
  });

  it('puts, overwrites, limits, types and deletes processed objects', async () => {
    const key = 'memes/0123abcd.png';
    await store.putObject(key, Buffer.from('png-1'), 'image/png', 'public, max-age=31536000');
    await store.putObject(key, Buffer.from('png-22'), 'image/png', 'public, max-age=31536000');
    const object = await store.readObject(key);
    expect(object?.contentType).toBe('image/png');
    expect(await text(object!.body)).toBe('png-22');
    await expect(store.getObjectBuffer(key, 5)).rejects.toThrow(TooLargeError);
    await expect(
      store.putObject('memes/page.png', Buffer.from('<html>'), 'text/html', 'no-cache'),
    ).rejects.toThrow(/does not match/);
    await store.deleteObject(key);
    await store.deleteObject(key);
    expect(await store.readObject(key)).toBeNull();
    expect(await store.getObjectBuffer(key, 100)).toBeNull();
  });

  it('reports ready when it can write, and not when the data folder is unusable', async () => {
    await expect(store.check()).resolves.toBeUndefined();
    const notADir = join(dataDir, 'file');
    await writeFile(notADir, 'x');
    const broken = createLocalDiskStore({ dataDir: notADir, secret: SECRET });
    await expect(broken.check()).rejects.toThrow();
  });
});

describe('local upload over real HTTP', () => {
  let dataDir: string;
  let store: LocalDiskStore;
  let server: Server;
  let origin: string;

  beforeEach(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'local-http-'));
    store = createLocalDiskStore({ dataDir, secret: SECRET });
    // The shape the route layer will have: verify the token, stream with the token's limit,
    // answer 413 without resetting the connection.
    server = createServer((req, res) => {
      const token = (req.url ?? '').slice(objectPaths.localUploadPrefix.length);
      const check = store.verifyUploadToken(token);
      if (!check.ok) {
        res.writeHead(403, { connection: 'close' }).end(check.reason);
        return;
      }
      store.writeUploadStream(check.payload.key, req, check.payload.maxBytes).then(
        ({ size }) => res.writeHead(200).end(String(size)),
        (error: Error) => {
          const status = error instanceof TooLargeError ? 413 : 409;
          res.writeHead(status, { connection: 'close' }).end(error.message);
        },
      );
    });
    origin = `http://127.0.0.1:${await listenOnLoopback(server)}`;
  });

  afterEach(async () => {
    await closeHttpServer(server);
    await rm(dataDir, { recursive: true, force: true });
  });

  async function target(maxBytes = FIVE_MB) {
    const key = newUploadKey();
    const { uploadURL } = await store.createUploadTarget({
      key,
      maxBytes,
      expiresAt: new Date(Date.now() + 60_000),
    });
    return { key, url: origin + uploadURL };
  }

  it('stores a file PUT with fetch, once', async () => {
    const { key, url } = await target();
    const body = randomBytes(200_000);
    const res = await fetch(url, { method: 'PUT', body });
    expect(res.status).toBe(200);
    expect(await res.text()).toBe('200000');
    expect((await readFile(join(dataDir, 'objects', ...key.split('/')))).equals(body)).toBe(true);
    const again = await fetch(url, { method: 'PUT', body: Buffer.from('replacement') });
    expect(again.status).toBe(409);
  });

  it('answers 413 to a 6 MB body, also sent chunked, and keeps nothing', async () => {
    const six = Buffer.alloc(6 * 1024 * 1024, 7);
    const plain = await target();
    const res = await fetch(plain.url, { method: 'PUT', body: six });
    expect(res.status).toBe(413);

    const chunked = await target();
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        for (let i = 0; i < 6; i++)
          controller.enqueue(six.subarray(i * 1048576, (i + 1) * 1048576));
        controller.close();
      },
    });
    const res2 = await fetch(chunked.url, {
      method: 'PUT',
      body: stream,
      duplex: 'half',
    } as RequestInit);
    expect(res2.status).toBe(413);
    expect(await listFilesRecursively(join(dataDir, 'objects'))).toEqual([]);
  });

  it('refuses a forged or expired link', async () => {
    const { url } = await target();
    const forged = url.slice(0, -2) + (url.endsWith('AA') ? 'BB' : 'AA');
    expect((await fetch(forged, { method: 'PUT', body: 'x' })).status).toBe(403);
    const expiredKey = newUploadKey();
    const { uploadURL } = await store.createUploadTarget({
      key: expiredKey,
      maxBytes: 10,
      expiresAt: new Date(Date.now() - 1),
    });
    const res = await fetch(origin + uploadURL, { method: 'PUT', body: 'x' });
    expect(res.status).toBe(403);
    expect(await res.text()).toBe('expired');
  });
});
