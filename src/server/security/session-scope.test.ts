import Fastify from 'fastify';
import { sql } from 'kysely';
import { createDatabase } from '#server/db/create-database.ts';
import { READ_CACHE_LONGEST_MS } from '#server/http/read-cache.ts';
import { describe, expect, it } from 'vitest';
import { suiteApp, uniqueName } from '#test-support/test-app.ts';
import { TestClient } from '#test-support/test-client.ts';
import { databaseKinds } from '#test-support/test-database.ts';
import { allowReadsOnly } from './session-scope.ts';
import { authPaths, gamePaths, sitePaths } from '#shared/api/paths.ts';

describe('the scope of public reads', () => {
  const appWith = (add: (scope: ReturnType<typeof Fastify>) => void) => {
    const app = Fastify();
    void app.register(async (scope) => {
      allowReadsOnly(scope);
      add(scope);
    });
    return app;
  };

  it('takes GET routes (and the HEAD routes Fastify adds to them)', async () => {
    const app = appWith((scope) => scope.get('/read', async () => ({ ok: true })));
    await app.ready();
    expect((await app.inject({ method: 'HEAD', url: '/read' })).statusCode).toBe(200);
    await app.close();
  });

  it('stops start-up when a write route is added to it', async () => {
    for (const method of ['POST', 'PUT', 'PATCH', 'DELETE'] as const) {
      const app = appWith((scope) =>
        scope.route({ method, url: '/write', handler: async () => ({}) }),
      );
      await expect(app.ready()).rejects.toThrow(
        `${method} /write: writes belong in a session scope`,
      );
    }
  });
});

describe.each(databaseKinds)('public reads on %s', (kind) => {
  const t = suiteApp(kind);

  it('serve a member without looking up the session', async () => {
    const member = TestClient.inject(t.app);
    await member.register(uniqueName('reader'));
    expect((await member.request('GET', authPaths.me)).json()).toMatchObject({
      user: { id: expect.any(Number) },
    });

    // With the session store gone, whatever looks the session up fails... (renamed by the owner:
    // the app's own role may not change tables on PostgreSQL, decision 019)
    const owner = createDatabase(t.owner);
    await sql`alter table sessions rename to sessions_gone`.execute(owner);
    // Past the longest a node serves a kept session (2 s, decision 011): the next look-up waits
    // for the database.
    t.clock.advance(READ_CACHE_LONGEST_MS + 1);
    try {
      expect((await member.request('GET', authPaths.me)).statusCode).toBe(500);
      // ...and the public reads, sent with the same session cookie, do not.
      for (const url of [gamePaths.leaderboard, gamePaths.winners, sitePaths.time]) {
        const res = await member.request('GET', url);
        expect(res.statusCode, url).toBe(200);
        expect(res.headers['set-cookie'], url).toBeUndefined();
      }
      expect((await member.request('GET', '/objects/memes/none.webp')).statusCode).toBe(404);
    } finally {
      await sql`alter table sessions_gone rename to sessions`.execute(owner);
      await owner.destroy();
    }
  });
});
