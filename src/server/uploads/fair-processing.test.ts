import { beforeAll, describe, expect, it } from 'vitest';
import { buildNoiseGifBomb, buildValidPng } from '#test-support/hostile-files.ts';
import { suiteApp, uniqueName } from '#test-support/test-app.ts';
import { TestClient } from '#test-support/test-client.ts';
import { databaseKinds } from '#test-support/test-database.ts';
import { memePaths } from '#shared/api/paths.ts';

describe.each(databaseKinds)(
  'image processing is fair between members, on %s',
  { timeout: 180_000 },
  (kind) => {
    const t = suiteApp(kind);
    let bomb: Buffer;
    beforeAll(async () => {
      // The audit's noise GIF: ~4 MB, 100x100 x 300 frames, seconds of encoding each.
      bomb = await buildNoiseGifBomb();
    }, 120_000);

    /** An upload URL with the file PUT to it: what the member then asks the server to process. */
    async function uploaded(member: TestClient, bytes: Buffer, type: string): Promise<string> {
      const target = await member.request('POST', memePaths.uploadTarget);
      expect(target.statusCode).toBe(200);
      const { uploadURL } = target.json<{ uploadURL: string }>();
      const put = await t.app.inject({
        method: 'PUT',
        url: uploadURL,
        payload: bytes,
        headers: { 'content-type': type },
      });
      expect(put.statusCode).toBe(200);
      return uploadURL;
    }

    const process = (member: TestClient, imageUrl: string) =>
      member.request('PUT', memePaths.memeImages, { body: { imageUrl } });

    it("another member's small PNG is processed while one member's GIF bombs wait; a third bomb is refused at once", async () => {
      const bomber = TestClient.inject(t.app);
      const bomberId = (await bomber.register(uniqueName('bomber'))).id;
      const other = TestClient.inject(t.app);
      await other.register(uniqueName('other'));
      const bombUrls = [
        await uploaded(bomber, bomb, 'image/gif'),
        await uploaded(bomber, bomb, 'image/gif'),
      ];
      const thirdUrl = await uploaded(bomber, bomb, 'image/gif');
      const pngUrl = await uploaded(other, await buildValidPng(80, 60), 'image/png');

      const finished: string[] = [];
      const bombs = bombUrls.map((url, i) =>
        process(bomber, url).then((res) => {
          finished.push(`bomb ${i + 1}`);
          return res;
        }),
      );
      // Both bombs hold their places once their uploads are used up (done on entering the line).
      const db = t.app.deps.db;
      const unused = async () =>
        (
          await db
            .selectFrom('uploads')
            .select('key')
            .where('user_id', '=', bomberId)
            .where('consumed_at', 'is', null)
            .execute()
        ).length;
      while ((await unused()) > 1) await new Promise((resolve) => setImmediate(resolve));

      const third = await process(bomber, thirdUrl);
      expect(third.statusCode).toBe(429);
      expect(Number(third.headers['retry-after'])).toBeGreaterThan(0);
      expect(third.json().message).toBe(
        'Your earlier images are still being processed. Please try again shortly.',
      );
      // Refused before use: the same upload can be processed later.
      expect(await unused()).toBe(1);

      const png = await process(other, pngUrl);
      finished.push('png');
      expect(png.statusCode).toBe(200);
      // The PNG did not wait for the bombs queued before it.
      expect(finished).toEqual(['png']);

      const results = await Promise.all(bombs);
      // Each bomb is then processed, or refused by the 20 s encode budget on a loaded machine.
      for (const res of results) expect([200, 413]).toContain(res.statusCode);
      // The bomber's two requests were sent together, so either may have reached the line first.
      expect(finished[0]).toBe('png');
      expect(finished.slice(1).sort()).toEqual(['bomb 1', 'bomb 2']);
    });
  },
);
