import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { memePaths, pathTo } from '#shared/api/paths.ts';
import { consolePaths } from '#shared/api/console/common.ts';
import { suiteApp, uniqueName } from '#test-support/test-app.ts';
import { TestClient } from '#test-support/test-client.ts';
import { databaseKinds } from '#test-support/test-database.ts';
import { operator } from '#test-support/operators.ts';
import { runAdminIn } from '#test-support/admin-cli.ts';
import { distinctPng, postMeme } from '#test-support/gallery.ts';
import { classify, unsafeScore } from './screening.ts';
import { perceptualHash } from './perceptual-hash.ts';

describe('the shipped classifier', () => {
  it('scores an image with the model inside the nsfwjs package, in its thread', async () => {
    const model = path.join('node_modules', 'nsfwjs', 'dist', 'models', 'mobilenet_v2');
    expect(fs.statSync(path.join(model, 'group1-shard1of1.min.js')).size).toBeGreaterThan(3e6);
    const scores = await classify(await distinctPng(224, 224));
    expect(Object.keys(scores).sort()).toEqual(['Drawing', 'Hentai', 'Neutral', 'Porn', 'Sexy']);
    const total = Object.values(scores).reduce((a, b) => a + b, 0);
    expect(total).toBeCloseTo(1, 3);
    // Coloured blocks are no one's idea of unsafe; the figure is the model's own.
    expect(unsafeScore(scores)).toBeLessThan(0.2);
    // The first call waits for the model's load in its thread (4-8 s, more on a busy machine).
  }, 90_000);
});

describe.each(databaseKinds)('screening and the blocklist on %s', (kind) => {
  // A threshold of 0 holds every scored image: the hold path, with the real model's score.
  const t = suiteApp(kind, {
    publicOrigin: 'http://localhost:3000',
    screening: { enabled: true, holdThreshold: 0 },
    alerts: {
      discord: { webhookUrl: 'http://127.0.0.1:9/unused' },
      telegram: undefined,
      email: undefined,
      queueSize: 25,
    },
  });

  it('holds a meme above the threshold: its owner sees it, nobody else, the queue blurs it, an alert waits', async () => {
    const owner = TestClient.inject(t.app, '198.51.100.70');
    await owner.register(uniqueName('owner'));
    const meme = await postMeme(t.app, owner, { title: 'Held one' });
    expect(meme.held).toBe(true);
    const one = pathTo(memePaths.one, { id: meme.id });
    expect((await TestClient.inject(t.app).request('GET', one)).statusCode).toBe(404);
    expect((await owner.request('GET', one)).json()).toMatchObject({ id: meme.id, held: true });

    const moderator = await operator(t, 'moderator', { passkey: true });
    const queue = await moderator.client.request('GET', consolePaths.reports);
    const entry = queue.json().entries.find((e: { meme: { id: number } }) => e.meme.id === meme.id);
    expect(entry.meme).toMatchObject({ held: true, heldBy: 'classifier', hidden: true });
    expect(entry.meme.screenScore).toBeGreaterThanOrEqual(0);
    const alert = await t.app.deps.db
      .selectFrom('alert_outbox')
      .select(['kind', 'subject'])
      .where('kind', '=', 'meme-held')
      .execute();
    expect(alert.map((a) => a.subject)).toContain(`Meme #${meme.id} held for review`);

    const dismissed = await moderator.client.request(
      'POST',
      pathTo(consolePaths.memeDecision, { id: meme.id }),
      { body: { decision: 'dismiss', reason: 'a drawing, nothing more' } },
    );
    expect(dismissed.statusCode).toBe(200);
    expect((await TestClient.inject(t.app).request('GET', one)).statusCode).toBe(200);
  });

  it("refuses a picture on an imported blocklist with the usual words, and exports deleted memes' hashes", async () => {
    const bytes = await distinctPng();
    const file = path.join(t.config.dataDir, 'their-list.txt');
    fs.writeFileSync(
      file,
      `# grind-phash-blocklist 1\n${await perceptualHash(bytes)} a scam picture\n`,
    );
    const imported = await runAdminIn(t, [
      'blocklist:import',
      file,
      '--source',
      'friends',
      '--reason',
      'their removed pictures',
    ]);
    expect(imported.text).toContain('Added 1 picture(s) from friends');
    const member = TestClient.inject(t.app, '198.51.100.71');
    await member.register(uniqueName('poster'));
    await expect(postMeme(t.app, member, { bytes })).rejects.toThrow(
      'This picture has been removed from the gallery and cannot be posted again.',
    );
    const exported = await runAdminIn(t, ['blocklist:export']);
    expect(exported.out[0]).toBe('# grind-phash-blocklist 1');
    expect(exported.text).toContain(`${await perceptualHash(bytes)} friends: a scam picture`);
  });
});
