import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Meme } from '#shared/api/memes.ts';
import { createTestApp, uniqueName, type TestApp } from '#test-support/test-app.ts';
import { TestClient } from '#test-support/test-client.ts';
import { databaseKinds } from '#test-support/test-database.ts';
import { memeCliCommands, type MemeCliContext } from './cli-commands.ts';
import { UsageError } from '../cli-command.ts';
import { postMeme } from '#test-support/gallery.ts';
import { keyFromObjectPath } from './object-paths.ts';
import { insertMeme } from './repository.ts';
import { toMeme } from './service.ts';
import { memePaths, pathTo } from '#shared/api/paths.ts';

describe.each(databaseKinds)('gallery operator commands on %s', (kind) => {
  let t: TestApp;
  let member: TestClient;
  let memberId: number;
  let output: string[];
  let ctx: MemeCliContext;

  beforeEach(async () => {
    t = await createTestApp(kind);
    member = TestClient.inject(t.app);
    memberId = (await member.register(uniqueName('admin_case'))).id;
    output = [];
    ctx = {
      db: t.app.deps.db,
      objectStore: t.app.deps.objectStore!,
      clock: t.clock,
      print: (line) => output.push(line),
    };
  });
  afterEach(async () => t?.close());

  const run = (name: string, ...args: string[]) => memeCliCommands[name]!.run(ctx, args);
  const visibleIds = async () =>
    (await TestClient.inject(t.app).request('GET', memePaths.list)).json<Meme[]>().map((m) => m.id);
  const status = async (path: string) =>
    (await t.app.inject({ method: 'GET', url: path })).statusCode;

  it('lists memes newest first with their state, votes and uploader', async () => {
    expect(await run('memes:list')).toBe(0);
    expect(output).toEqual(['No memes yet.']);
    output.length = 0;
    const a = await postMeme(t.app, member, { category: 'overtime' });
    // The API refuses control characters in titles now; a row from before may still hold one.
    await t.app.deps.db
      .updateTable('memes')
      .set({ title: 'Line\nbreak "quoted"' })
      .where('id', '=', a.id)
      .execute();
    const b = await postMeme(t.app, member, { title: 'Second' });
    await run('memes:hide', String(a.id));
    output.length = 0;
    expect(await run('memes:list', '--limit', '5')).toBe(0);
    expect(output).toHaveLength(3);
    expect(output[1]).toMatch(new RegExp(`^\\s+${b.id}  shown .*"Second"$`));
    expect(output[2]).toContain('hidden');
    expect(output[2]).toContain(JSON.stringify('Line\nbreak "quoted"'));
    await expect(run('memes:list', '--limit', 'x')).rejects.toThrow(UsageError);
  });

  it("hides and unhides a meme for the API within the read cache's second", async () => {
    const meme = await postMeme(t.app, member);
    expect(await run('memes:hide', String(meme.id))).toBe(0);
    t.clock.advance(1001);
    await expect.poll(visibleIds).toEqual([]);
    expect(await run('memes:unhide', String(meme.id))).toBe(0);
    t.clock.advance(1001);
    await expect.poll(visibleIds).toEqual([meme.id]);
    expect(await run('memes:hide', '999999')).toBe(1);
    await expect(run('memes:hide')).rejects.toThrow(UsageError);
    await expect(run('memes:hide', '1; drop table memes')).rejects.toThrow(UsageError);
  });

  it('deletes a meme with its votes and images, keeping images another meme shares', async () => {
    const first = await postMeme(t.app, member, { title: 'Original' });
    // Uploads are refused as duplicates now; memes from before could share one image.
    const twin = toMeme(
      await insertMeme(t.app.deps.db, {
        userId: memberId,
        title: 'Repost',
        category: 'office-life',
        imageKey: keyFromObjectPath(first.imageUrl)!,
        thumbnailKey: keyFromObjectPath(first.thumbnailUrl)!,
        thumbnailWidth: first.thumbnailWidth,
        thumbnailHeight: first.thumbnailHeight,
        now: t.clock.now(),
      }),
    );
    await member.request('POST', pathTo(memePaths.vote, { id: first.id }), {
      body: { voteType: 'up' },
    });

    expect(await run('memes:delete', String(first.id))).toBe(0);
    expect(output.at(-1)).toContain('2 kept');
    t.clock.advance(1001);
    await expect.poll(visibleIds).toEqual([twin.id]);
    expect(await status(twin.imageUrl)).toBe(200);
    expect(await t.app.deps.db.selectFrom('meme_votes').selectAll().execute()).toEqual([]);

    expect(await run('memes:delete', String(twin.id))).toBe(0);
    expect(output.at(-1)).toMatch(
      new RegExp(`^Deleted meme #${twin.id} and 2 image file\\(s\\) \\(decision #\\d+\\)\\.$`),
    );
    expect(await status(twin.imageUrl)).toBe(404);
    expect(await status(twin.thumbnailUrl)).toBe(404);
    expect(await run('memes:delete', String(twin.id))).toBe(1);
  });
});
