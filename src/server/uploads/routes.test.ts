import { CreateBucketCommand } from '@aws-sdk/client-s3';
import { randomBytes } from 'node:crypto';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import S3rver from 's3rver';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { S3Config } from '../config.ts';
import { createS3Store } from '../storage/s3.ts';
import { createTestApp, uniqueName, type TestApp } from '#test-support/test-app.ts';
import { appWithMemberPerTest } from '#test-support/member-app.ts';
import { TestClient } from '#test-support/test-client.ts';
import { databaseKinds } from '#test-support/test-database.ts';
import {
  buildHostileCorpus,
  buildJpegWithGps,
  buildValidPng,
  GPS_MARKER,
  METADATA_NEEDLES,
  type HostileFile,
} from '#test-support/hostile-files.ts';
import { UNUSED_IMAGE_TTL_MS, UPLOAD_PROCESS_GRACE_MS, UPLOAD_URL_TTL_MS } from './service.ts';
import { memePaths } from '#shared/api/paths.ts';

type StoreKind = 'local' | 's3';

let s3rver: S3rver;
let s3rverDir: string;
let s3Endpoint: string;
let corpus: HostileFile[];

beforeAll(async () => {
  s3rverDir = await mkdtemp(join(tmpdir(), 's3rver-api-'));
  s3rver = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory: s3rverDir });
  const { port } = await s3rver.run();
  s3Endpoint = `http://127.0.0.1:${port}`;
  corpus = await buildHostileCorpus();
});

afterAll(async () => {
  await s3rver?.close();
  await rm(s3rverDir, { recursive: true, force: true });
});

/** A bucket of its own per app, created the way an operator would before starting the site. */
async function freshBucket(): Promise<S3Config> {
  const s3: S3Config = {
    bucket: `grind-${randomBytes(5).toString('hex')}`,
    endpoint: s3Endpoint,
    region: 'us-east-1',
    accessKeyId: 'S3RVER',
    secretAccessKey: 'S3RVER',
    forcePathStyle: true,
  };
  const admin = createS3Store({ ...s3 });
  await admin.client.send(new CreateBucketCommand({ Bucket: s3.bucket }));
  admin.client.destroy();
  return s3;
}

async function filesUnder(dir: string): Promise<string[]> {
  try {
    const entries = await readdir(dir, { recursive: true, withFileTypes: true });
    return entries.filter((e) => e.isFile()).map((e) => join(e.parentPath, e.name));
  } catch {
    return [];
  }
}

const cases = databaseKinds.flatMap((db) =>
  (['local', 's3'] as StoreKind[]).map((store) => [db, store] as const),
);

describe.each(cases)('uploads on %s with the %s store', (dbKind, storeKind) => {
  let t: TestApp;
  let origin: string;
  let member: TestClient;

  appWithMemberPerTest(
    dbKind,
    {
      prefix: 'uploader',
      http: true,
      config: async () => (storeKind === 's3' ? { s3: await freshBucket() } : {}),
    },
    (fresh) => {
      ({ t, member } = fresh);
      origin = fresh.origin!;
    },
  );

  /** PUT the bytes where the site said, as the browser does: no CSRF header, the file's type. */
  async function putFile(client: TestClient, uploadURL: string, bytes: Buffer, type: string) {
    if (uploadURL.startsWith('/')) {
      return client.request('PUT', uploadURL, {
        body: bytes,
        headers: { 'content-type': type },
        csrf: false,
      });
    }
    const res = await fetch(uploadURL, {
      method: 'PUT',
      body: new Uint8Array(bytes),
      headers: { 'content-type': type },
    });
    return { statusCode: res.status, body: await res.text() };
  }

  async function newUploadURL(client = member): Promise<string> {
    const res = await client.request('POST', memePaths.uploadTarget);
    expect(res.statusCode).toBe(200);
    const { uploadURL } = res.json<{ uploadURL: string }>();
    return uploadURL;
  }

  /** The whole upload flow (slot, PUT, processing, post); the status of the step that refused, or the objectPath. */
  async function upload(bytes: Buffer, type = 'image/jpeg', client = member) {
    const uploadURL = await newUploadURL(client);
    const put = await putFile(client, uploadURL, bytes, type);
    if (put.statusCode !== 200) return { uploadURL, status: put.statusCode, message: put.body };
    const res = await client.request('PUT', memePaths.memeImages, {
      body: { imageUrl: uploadURL },
    });
    const body = res.json<{ objectPath?: string; message?: string }>();
    return {
      uploadURL,
      status: res.statusCode,
      objectPath: body.objectPath,
      message: body.message,
    };
  }

  async function rawUploadExists(uploadURL: string): Promise<boolean> {
    const store = t.app.deps.objectStore!;
    const key = store.keyFromUploadURL(uploadURL);
    expect(key).toMatch(/^uploads\//);
    return (await store.readObject(key!)) !== null;
  }

  async function postMeme(objectPath: string, title = 'A meme', category = 'office-life') {
    return member.request('POST', memePaths.create, {
      body: { title, category, imageUrl: objectPath },
    });
  }

  async function served(path: string) {
    const res = await fetch(new URL(path, origin));
    return { res, bytes: Buffer.from(await res.arrayBuffer()) };
  }

  it('asks visitors to log in before anything is stored', async () => {
    const visitor = TestClient.http(origin);
    const res = await visitor.request('POST', memePaths.uploadTarget);
    expect(res.statusCode).toBe(401);
    expect(res.json<{ message: string }>().message).toBe('Please log in to upload images');
    const process = await visitor.request('PUT', memePaths.memeImages, { body: { imageUrl: 'x' } });
    expect(process.statusCode).toBe(401);
    expect(await t.app.deps.db.selectFrom('uploads').selectAll().execute()).toEqual([]);
  });

  it('turns a phone photo into a clean display image and thumbnail, served safely', async () => {
    const photo = await buildJpegWithGps(600, 400);
    expect(photo.includes(GPS_MARKER)).toBe(true);
    const result = await upload(photo);
    expect(result.status).toBe(200);
    expect(result.objectPath).toMatch(/^\/objects\/memes\/[0-9a-f]{64}\.jpg$/);
    expect(await rawUploadExists(result.uploadURL)).toBe(false);

    const posted = await postMeme(result.objectPath!, '  Holiday at the desk  ');
    expect(posted.statusCode).toBe(201);
    const { meme } = posted.json<{ meme: Record<string, unknown> }>();
    expect(meme).toMatchObject({
      title: 'Holiday at the desk',
      imageUrl: result.objectPath,
      myVote: null,
    });

    for (const path of [meme.imageUrl as string, meme.thumbnailUrl as string]) {
      const { res, bytes } = await served(path);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe(
        path.endsWith('.webp') ? 'image/webp' : 'image/jpeg',
      );
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
      expect(res.headers.get('content-security-policy')).toBe("default-src 'none'; sandbox");
      expect(res.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
      for (const needle of METADATA_NEEDLES) expect(bytes.includes(needle), needle).toBe(false);
      const meta = await sharp(bytes).metadata();
      expect(meta.exif).toBeUndefined();
      // Orientation 6 was applied to the pixels: the landscape sensor image is now portrait.
      expect(meta.height).toBeGreaterThan(meta.width);
      const again = await fetch(new URL(path, origin), {
        headers: { 'if-none-match': res.headers.get('etag')! },
      });
      expect(again.status).toBe(304);
    }
    // 600x400 turned upright, at the thumbnail's 400 px width.
    expect(meme.thumbnailWidth).toBe(400);
    expect(meme.thumbnailHeight).toBe(600);
  });

  it('refuses or cleans every file of the hostile corpus, keeping no raw upload', async () => {
    for (const file of corpus) {
      const result = await upload(file.bytes, file.claimedType);
      if (file.expect.outcome === 'reject') {
        expect(result.status, file.name).toBe(file.expect.status);
        expect(result.objectPath, file.name).toBeUndefined();
      } else if (result.status !== 200) {
        expect(result.status, file.name).toBe(file.expect.orReject);
      } else {
        const posted = await postMeme(result.objectPath!, file.name);
        expect(posted.statusCode).toBe(201);
        const { meme } = posted.json<{
          meme: { imageUrl: string; thumbnailUrl: string };
        }>();
        for (const path of [meme.imageUrl, meme.thumbnailUrl]) {
          const { res, bytes } = await served(path);
          expect(res.status).toBe(200);
          expect(res.headers.get('content-type')).toMatch(/^image\/(jpeg|png|webp)$/);
          for (const needle of file.expect.mustNotContain)
            expect(bytes.includes(needle), `${file.name} ${needle}`).toBe(false);
        }
      }
      if (result.status !== 413 || storeKind === 's3') {
        expect(await rawUploadExists(result.uploadURL), file.name).toBe(false);
      }
    }
    if (storeKind === 'local') {
      const objects = join(t.config.dataDir, 'objects');
      expect(await filesUnder(join(objects, 'uploads'))).toEqual([]);
      expect(await filesUnder(join(objects, '.tmp'))).toEqual([]);
      for (const file of await filesUnder(join(objects, 'memes'))) {
        expect(file).toMatch(/\/memes\/[0-9a-f]{64}(-thumb)?\.(jpg|png|webp)$/);
      }
    }
  });

  it('keeps an animated GIF animated', async () => {
    const { buildAnimatedGif } = await import('#test-support/hostile-files.ts');
    const result = await upload(await buildAnimatedGif(120, 90, 4), 'image/gif');
    expect(result.status).toBe(200);
    expect(result.objectPath).toMatch(/\.gif$/);
    const { res, bytes } = await served(result.objectPath!);
    expect(res.headers.get('content-type')).toBe('image/gif');
    expect((await sharp(bytes, { animated: true }).metadata()).pages).toBe(4);
  });

  it('processes an upload once, for its own member only', async () => {
    const png = await buildValidPng(64, 48);
    const uploadURL = await newUploadURL();
    expect((await putFile(member, uploadURL, png, 'image/png')).statusCode).toBe(200);

    const other = TestClient.http(origin);
    await other.register(uniqueName('thief'));
    const stolen = await other.request('PUT', memePaths.memeImages, {
      body: { imageUrl: uploadURL },
    });
    expect(stolen.statusCode).toBe(404);

    const first = await member.request('PUT', memePaths.memeImages, {
      body: { imageUrl: uploadURL },
    });
    expect(first.statusCode).toBe(200);
    const again = await member.request('PUT', memePaths.memeImages, {
      body: { imageUrl: uploadURL },
    });
    expect(again.statusCode).toBe(409);

    const foreign = await member.request('PUT', memePaths.memeImages, {
      body: { imageUrl: 'https://elsewhere.example/uploads/0b0d6a0c-56d7-4a0e-9c35-1d0d3bba0f6c' },
    });
    expect(foreign.statusCode).toBe(400);
  });

  it('answers 400 when nothing was uploaded yet, and lets the member try again', async () => {
    const uploadURL = await newUploadURL();
    const early = await member.request('PUT', memePaths.memeImages, {
      body: { imageUrl: uploadURL },
    });
    expect(early.statusCode).toBe(400);
    expect(
      (await putFile(member, uploadURL, await buildValidPng(32, 32), 'image/png')).statusCode,
    ).toBe(200);
    const later = await member.request('PUT', memePaths.memeImages, {
      body: { imageUrl: uploadURL },
    });
    expect(later.statusCode).toBe(200);
  });

  it('sweeps raw files whose URL ran out and processed images nobody posted', async () => {
    const abandoned = await newUploadURL();
    expect(
      (await putFile(member, abandoned, await buildValidPng(40, 40), 'image/png')).statusCode,
    ).toBe(200);
    const unposted = await upload(await buildValidPng(50, 50), 'image/png');
    const posted = await upload(await buildValidPng(60, 60), 'image/png');
    expect((await postMeme(posted.objectPath!)).statusCode).toBe(201);

    t.clock.advance(UPLOAD_URL_TTL_MS + UPLOAD_PROCESS_GRACE_MS + UNUSED_IMAGE_TTL_MS);
    const { pruneUploads } = await import('./service.ts');
    const { createImageProcessor } = await import('./image-processing.ts');
    const swept = await pruneUploads(
      { deps: t.app.deps, store: t.app.deps.objectStore!, processor: createImageProcessor() },
      t.clock.now(),
    );
    expect(swept).toEqual({ uploads: 3, images: 1 });
    expect(await rawUploadExists(abandoned)).toBe(false);
    expect((await served(unposted.objectPath!)).res.status).toBe(404);
    expect((await served(posted.objectPath!)).res.status).toBe(200);
    expect(await t.app.deps.db.selectFrom('uploads').selectAll().execute()).toEqual([]);
  });

  it('reports the object store in readiness and lets pages PUT to it', async () => {
    const res = await fetch(new URL('/readyz', origin));
    expect(res.status).toBe(200);
    const csp = res.headers.get('content-security-policy');
    expect(csp).toContain(
      storeKind === 's3' ? `connect-src 'self' ${s3Endpoint};` : "connect-src 'self';",
    );
  });
});

describe('readiness without the bucket', () => {
  it('is 503 when the S3 bucket is missing', async () => {
    const s3 = await freshBucket();
    const t = await createTestApp('sqlite', { s3: { ...s3, bucket: 'no-such-bucket' } });
    try {
      const res = await t.app.inject({ method: 'GET', url: '/readyz' });
      expect(res.statusCode).toBe(503);
      expect(res.json()).toEqual({ status: 'object store unavailable' });
    } finally {
      await t.close();
    }
  });
});

describe.each(databaseKinds)('the local upload URL on %s', (dbKind) => {
  let t: TestApp;
  let origin: string;
  let member: TestClient;

  appWithMemberPerTest(dbKind, { prefix: 'local', http: true }, (fresh) => {
    ({ t, member } = fresh);
    origin = fresh.origin!;
  });

  async function uploadURL(): Promise<string> {
    const res = await member.request('POST', memePaths.uploadTarget);
    return res.json<{ uploadURL: string }>().uploadURL;
  }

  it('is exempt from CSRF (its signature is the credential) but not from the origin check', async () => {
    const url = await uploadURL();
    expect(url).toMatch(/^\/api\/uploads\/[A-Za-z0-9_-]+\.[A-Za-z0-9_-]{43}$/);
    const crossSite = await member.request('PUT', url, {
      body: Buffer.from('x'),
      headers: { origin: 'https://evil.example' },
      csrf: false,
    });
    expect(crossSite.statusCode).toBe(403);
    const noToken = await member.request('PUT', url, {
      body: await buildValidPng(8, 8),
      csrf: false,
    });
    expect(noToken.statusCode).toBe(200);
    // Every other mutating call still needs the token.
    const processWithout = await member.request('PUT', memePaths.memeImages, {
      body: { imageUrl: url },
      csrf: false,
    });
    expect(processWithout.statusCode).toBe(403);
    expect(processWithout.body).toContain('CSRF');
  });

  it('takes any content type as raw bytes, once', async () => {
    const url = await uploadURL();
    const png = await buildValidPng(16, 16);
    const res = await member.request('PUT', url, {
      body: png,
      headers: { 'content-type': 'application/json' },
      csrf: false,
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ size: png.length });
    const again = await member.request('PUT', url, { body: png, csrf: false });
    expect(again.statusCode).toBe(409);
  });

  it('refuses more than 5 MB with 413, also when the length is not announced, and keeps nothing', async () => {
    const big = randomBytes(5 * 1024 * 1024 + 1);
    const announced = await member.request('PUT', await uploadURL(), { body: big, csrf: false });
    expect(announced.statusCode).toBe(413);
    const chunks = new ReadableStream<Uint8Array>({
      start(controller) {
        for (let i = 0; i < big.length; i += 1 << 20)
          controller.enqueue(big.subarray(i, i + (1 << 20)));
        controller.close();
      },
    });
    const streamed = await fetch(new URL(await uploadURL(), origin), {
      method: 'PUT',
      body: chunks,
      duplex: 'half',
      headers: { origin },
    } as RequestInit);
    expect(streamed.status).toBe(413);
    expect(await filesUnder(join(t.config.dataDir, 'objects', 'uploads'))).toEqual([]);
    expect(await filesUnder(join(t.config.dataDir, 'objects', '.tmp'))).toEqual([]);
  });

  it('says "Request has expired" after 15 minutes and refuses forged tokens', async () => {
    const url = await uploadURL();
    t.clock.advance(UPLOAD_URL_TTL_MS);
    const expired = await member.request('PUT', url, { body: Buffer.from('x'), csrf: false });
    expect(expired.statusCode).toBe(403);
    expect(expired.body).toContain('Request has expired');
    const forged = await member.request('PUT', `${url.slice(0, -3)}AAA`, {
      body: Buffer.from('x'),
      csrf: false,
    });
    expect(forged.statusCode).toBe(403);
  });

  it('serves processed images only: never raw uploads, other keys or paths', async () => {
    const url = await uploadURL();
    const html = Buffer.from('<html><script>alert(1)</script></html>');
    expect((await member.request('PUT', url, { body: html, csrf: false })).statusCode).toBe(200);
    const key = t.app.deps.objectStore!.keyFromUploadURL(url)!;
    for (const path of [
      `/objects/${key}`,
      '/objects/memes/../uploads/x',
      '/objects/memes/%2e%2e/session-secret',
      '/objects/app.db',
      '/objects/memes/abc.html',
    ]) {
      const res = await fetch(new URL(path, origin));
      expect(res.status, path).toBe(404);
      expect(res.headers.get('content-type'), path).toMatch(/^application\/json/);
    }
  });
});

describe('uploads through inject with the test client', () => {
  it('keeps the JSON routes parsing JSON beside the raw upload route', async () => {
    const t = await createTestApp('sqlite');
    try {
      const client = TestClient.inject(t.app);
      await client.register(uniqueName('json'));
      const res = await client.request('PUT', memePaths.memeImages, { body: '{"imageUrl": 1}' });
      expect(res.statusCode).toBe(400);
      expect(res.json<{ message: string }>().message).toMatch(/imageUrl/);
    } finally {
      await t.close();
    }
  });
});
