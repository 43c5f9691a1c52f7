import fs from 'node:fs';
import http from 'node:http';
import net, { type AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { buildApp } from '../app.ts';
import { loadConfig, type AppConfig } from '../config.ts';
import { createDatabase } from '../db/create-database.ts';
import { MigrationError } from '../db/migrate.ts';
import { SQLite } from '../db/sqlite.ts';
import { createTestApp, uniqueName } from '#test-support/test-app.ts';
import { TestClient } from '#test-support/test-client.ts';
import { createTestDatabase, databaseKinds } from '#test-support/test-database.ts';
import { freePort, startNode } from '#test-support/node-process.ts';
import { authPaths, gamePaths, memePaths, objectPaths } from '#shared/api/paths.ts';
import { sleep } from '#test-support/sleep.ts';

describe.each(databaseKinds)('operations on %s', (kind) => {
  it('refuses to start against a database migrated by newer code', async () => {
    const testDb = await createTestDatabase(kind);
    const config = {
      ...loadConfig({ DATA_DIR: testDb.dataDir, SESSION_SECRET: 'x'.repeat(40) }),
      database: testDb.database,
      clientDistDir: undefined,
    };
    try {
      const first = await buildApp(config, { logger: false });
      await first.close();
      const db = createDatabase(testDb.owner);
      await sql`insert into kysely_migration (name, timestamp) values ('999-from-the-future', '2030-01-01T00:00:00.000Z')`.execute(
        db,
      );
      await db.destroy();
      await expect(buildApp(config, { logger: false })).rejects.toBeInstanceOf(MigrationError);
    } finally {
      await testDb.drop();
    }
  });
});

/**
 * Runs `use` with an app on a fresh SQLite database whose log lines are kept (one string each),
 * then closes it.
 */
async function withLoggedApp(
  overrides: Partial<AppConfig>,
  use: (app: FastifyInstance, lines: string[], config: AppConfig) => Promise<void>,
) {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _enc, done) {
      lines.push(...chunk.toString().split('\n').filter(Boolean));
      done();
    },
  });
  const t = await createTestApp('sqlite');
  await t.app.close();
  const app = await buildApp({ ...t.config, ...overrides }, { logger: { stream } });
  try {
    await use(app, lines, t.config);
  } finally {
    await app.close();
    await t.close();
  }
}

describe('logs', () => {
  it('are JSON lines with request ids and never hold session ids, CSRF tokens or upload tokens', async () => {
    await withLoggedApp({ logLevel: 'debug' }, async (app, lines) => {
      const c = TestClient.inject(app);
      await c.register(uniqueName());
      const token = await c.token();
      await c.request('POST', authPaths.logout);
      await c.request('PUT', `${objectPaths.localUploadPrefix}secret-upload-token-value`, {
        body: 'x',
      });
      await c.request('GET', '/api/no-such-route');
      type Line = {
        level: number;
        reqId?: string;
        msg: string;
        req?: { method: string; url: string };
        res?: { statusCode: number };
        responseTime?: number;
      };
      const parsed = lines.map((line) => JSON.parse(line) as Line);
      // One line per request, once it is answered, naming the request and the answer; routine
      // reads at debug (20), writes and refusals at info (30).
      const requests = parsed.filter((l) => l.msg === 'request completed');
      expect(
        requests.map((l) => `${l.level} ${l.req?.method} ${l.req?.url} ${l.res?.statusCode}`),
      ).toEqual([
        '30 POST /api/auth/register 201',
        '20 GET /api/csrf-token 200',
        '30 POST /api/auth/logout 200',
        // Logout renews the CSRF cookie, so the client fetches a new token before its next write.
        '20 GET /api/csrf-token 200',
        '30 PUT /api/uploads/[token] 403',
        '30 GET /api/no-such-route 404',
      ]);
      expect(new Set(requests.map((l) => l.reqId)).size).toBe(6);
      expect(requests.every((l) => typeof l.responseTime === 'number')).toBe(true);
      const all = lines.join('\n');
      expect(all).not.toContain(c.cookies.get('csrf')!);
      expect(all).not.toContain(token);
      expect(all).not.toContain('secret-upload-token-value');
      expect(all).not.toMatch(/sid=/);
    });
  });

  it('hold a failed request once at error level, with its stack and request id', async () => {
    await withLoggedApp({}, async (app, lines) => {
      await sql`alter table game_scores rename to game_scores_gone`.execute(app.deps.db);
      const res = await app.inject({ method: 'GET', url: gamePaths.leaderboard });
      expect(res.statusCode).toBe(500);
      expect(res.json()).toEqual({ message: 'Internal Server Error' });
      const id = res.headers['x-request-id'];
      type Line = { level: number; reqId?: string; msg: string; err?: { stack?: string } };
      const parsed = lines.map((line) => JSON.parse(line) as Line);
      const errors = parsed.filter((l) => l.level >= 50);
      expect(errors).toHaveLength(1);
      expect(errors[0]).toMatchObject({ reqId: id, msg: 'request failed' });
      expect(errors[0]!.err?.stack).toContain('game_scores');
      expect(parsed.filter((l) => l.msg === 'request completed')).toEqual([
        expect.objectContaining({ level: 30, reqId: id, res: { statusCode: 500 } }),
      ]);
    });
  });

  it('take an upload cut off mid-body for what it is, not a server failure, and keep no part of it', async () => {
    await withLoggedApp({}, async (app, lines, config) => {
      const member = TestClient.inject(app);
      await member.register(uniqueName('Cutoff'));
      const target = await member.request('POST', memePaths.uploadTarget);
      const { pathname } = new URL(target.json<{ uploadURL: string }>().uploadURL, 'http://x');
      await app.listen({ port: 0, host: '127.0.0.1' });
      const { port } = app.server.address() as AddressInfo;
      const send = (request: string) =>
        new Promise<void>((resolve, reject) => {
          const socket = net.connect(port, '127.0.0.1', () => {
            socket.write(request);
            setTimeout(() => {
              socket.destroy();
              resolve();
            }, 200);
          });
          socket.on('error', reject);
        });
      const head = `PUT ${pathname} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: image/png\r\n`;
      await send(`${head}Content-Length: 100000\r\n\r\n${'x'.repeat(1000)}`);
      // A body longer than it said: the parser fails the request as the write starts.
      for (let i = 0; i < 10; i++) {
        await send(`${head}Content-Length: 10\r\n\r\n0123456789GARBAGE\r\n\r\n`);
      }
      // Nothing is answered to a closed socket, so there is no access line to wait for: give the
      // handler time to see the body end early (the write fails at once) and check the log then.
      await sleep(500);
      const parsed = lines.map((line) => JSON.parse(line) as { level: number; msg: string });
      expect(parsed.filter((l) => l.level >= 50)).toEqual([]);
      const upload = await app.deps.db.selectFrom('uploads').selectAll().executeTakeFirstOrThrow();
      expect(upload.consumed_at).toBeNull();
      // No half-written file stays behind, however often the same upload URL fails.
      const temp = path.join(config.dataDir, 'objects/.tmp');
      expect(fs.existsSync(temp) ? fs.readdirSync(temp) : []).toEqual([]);
    });
  });
});

describe('the server process', () => {
  it('drains in-flight requests on SIGTERM, then exits 0', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'grind-sigterm-'));
    // A port the kernel picked: a random one could be taken (by another test's client, say), and
    // the server would exit 1 on EADDRINUSE before this test began.
    const port = await freePort();
    const node = await startNode({
      env: {
        PORT: String(port),
        DATA_DIR: dataDir,
        LOG_LEVEL: 'info',
        CLIENT_DIST_DIR: path.join(dataDir, 'no-client'),
        TRUST_PROXY: 'true',
        PUBLIC_ORIGIN: `http://127.0.0.1:${port}`,
      },
    });
    try {
      const inFlight = Array.from({ length: 40 }, (_, i) =>
        fetch(`${node.origin}${authPaths.register}`, {
          method: 'POST',
          // Forty visitors: one address may open only so many accounts an hour.
          headers: { 'content-type': 'application/json', 'x-forwarded-for': `203.0.113.${i + 1}` },
          body: JSON.stringify({ username: `drain_${i}_${node.port}`, password: 'secret1' }),
        }).then(
          (r) => r.status,
          () => 'refused',
        ),
      );
      // Signal once the server has started on the burst, so some requests are truly in flight.
      for (let i = 0; i < 200 && !node.output().includes(`"url":"${authPaths.register}"`); i++) {
        await sleep(25);
      }
      const stopped = node.stop(30_000);
      const statuses = await Promise.all(inFlight);
      expect(await stopped, node.output()).toBe(0);
      // Every request that reached the server got a real answer: created, or refused while closing.
      expect(statuses.every((s) => s === 201 || s === 503 || s === 'refused')).toBe(true);
      expect(statuses.filter((s) => s === 201).length).toBeGreaterThan(0);
      expect(node.output()).toContain('shutting down');
      const db = new SQLite(path.join(dataDir, 'app.db'), { readonly: true });
      const created = (
        db.prepare("select count(*) as n from users where username like 'drain_%'").get() as {
          n: number;
        }
      ).n;
      db.close();
      expect(created).toBe(statuses.filter((s) => s === 201).length);
    } finally {
      await node.kill();
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  }, 60_000);

  it('answers a request in flight on a keep-alive connection with connection: close, and exits', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'grind-keepalive-'));
    const node = await startNode({
      env: { DATA_DIR: dataDir, CLIENT_DIST_DIR: path.join(dataDir, 'no-client') },
    });
    const agent = new http.Agent({ keepAlive: true });
    try {
      const body = JSON.stringify({ username: uniqueName('keepalive'), password: 'secret1' });
      const answered = new Promise<{ status?: number; connection?: string }>((resolve, reject) => {
        const request = http.request(`${node.origin}/api/auth/register`, {
          method: 'POST',
          agent,
          headers: {
            'content-type': 'application/json',
            'content-length': Buffer.byteLength(body),
          },
        });
        request.on('response', (res) => {
          res.resume();
          res.on('end', () =>
            resolve({ status: res.statusCode, connection: res.headers.connection }),
          );
        });
        request.on('error', reject);
        // Half the body now: the server has taken the request on before it is told to stop.
        request.write(body.slice(0, 10));
        setTimeout(() => {
          node.child.kill('SIGTERM');
          setTimeout(() => request.end(body.slice(10)), 200);
        }, 300);
      });
      // The answer closes the keep-alive connection; left open, it would hold the node up until
      // its keep-alive timeout (72 s), and stop() would end it with SIGKILL (exit code -1).
      expect(await answered).toEqual({ status: 201, connection: 'close' });
      expect(await node.stop(10_000)).toBe(0);
    } finally {
      agent.destroy();
      await node.kill();
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  }, 30_000);
});

describe('backup and restore', () => {
  async function seed(app: Awaited<ReturnType<typeof buildApp>>) {
    const c = TestClient.inject(app);
    const name = uniqueName('backup');
    const user = await c.register(name, 'secret1');
    await app.deps.db.updateTable('users').set({ coins: 321 }).where('id', '=', user.id).execute();
    return name;
  }

  async function expectSameData(app: Awaited<ReturnType<typeof buildApp>>, name: string) {
    const row = await app.deps.db
      .selectFrom('users')
      .select(['username', 'coins'])
      .where('username', '=', name)
      .executeTakeFirst();
    expect(row).toEqual({ username: name, coins: 321 });
    expect((await TestClient.inject(app).login(name, 'secret1')).statusCode).toBe(200);
  }

  it('SQLite: the admin backup of a live database restores to the same data after a wipe', async () => {
    const { backupCommand } = await import('../cli/backup-command.ts');
    const t = await createTestApp('sqlite');
    const name = await seed(t.app);
    const file = path.join(t.config.dataDir, 'backup.db');
    const printed: string[] = [];
    const code = await backupCommand.run(
      { config: t.config, db: t.app.deps.db, print: (l) => printed.push(l) },
      [file],
    );
    expect(code).toBe(0);
    await t.app.close();
    const live = (t.config.database as { file: string }).file;
    for (const suffix of ['', '-wal', '-shm']) fs.rmSync(live + suffix, { force: true });
    fs.copyFileSync(file, live);
    const restored = await buildApp(t.config, { logger: false });
    try {
      await expectSameData(restored, name);
    } finally {
      await restored.close();
      fs.rmSync(t.config.dataDir, { recursive: true, force: true });
    }
  });

  it.runIf(databaseKinds.includes('postgres'))(
    'PostgreSQL: pg_dump, wipe, pg_restore gives the same data',
    async () => {
      const { execFileSync } = await import('node:child_process');
      const source = await createTestApp('postgres');
      const name = await seed(source.app);
      const url = (source.config.database as { url: string }).url;
      const dump = path.join(source.config.dataDir, 'grind.dump');
      execFileSync('pg_dump', [
        '--format=custom',
        '--no-owner',
        '--no-acl',
        `--file=${dump}`,
        `--dbname=${url}`,
      ]);
      await source.app.close();
      const target = await createTestDatabase('postgres');
      try {
        // Restored by the role that owns the tables; the node then grants its app role.
        const targetUrl = (target.owner as { url: string }).url;
        execFileSync('pg_restore', ['--no-owner', '--no-acl', `--dbname=${targetUrl}`, dump]);
        const restored = await buildApp(
          { ...source.config, database: target.database },
          { logger: false },
        );
        try {
          await expectSameData(restored, name);
        } finally {
          await restored.close();
        }
      } finally {
        await target.drop();
        await source.close().catch(() => {});
      }
    },
    60_000,
  );
});
