import { execFile, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { freePort } from './node-process.ts';
import { sleep } from './sleep.ts';

/**
 * A PostgreSQL cluster and a Redis server of a test's own, on free loopback ports, that the
 * test may stop and start as it likes: the machine's shared services are never touched.
 */

const run = promisify(execFile);

/** Debian's PostgreSQL binaries (initdb, pg_ctl), newest version first; null when absent. */
export function postgresBinDir(): string | null {
  const root = '/usr/lib/postgresql';
  if (!fs.existsSync(root)) return null;
  const versions = fs
    .readdirSync(root)
    .filter((v) => fs.existsSync(path.join(root, v, 'bin', 'initdb')))
    .sort((a, b) => Number(b) - Number(a));
  return versions.length ? path.join(root, versions[0]!, 'bin') : null;
}

export function redisServerPath(): string | null {
  return (
    ['/usr/bin/redis-server', '/usr/local/bin/redis-server'].find((p) => fs.existsSync(p)) ?? null
  );
}

export interface OwnPostgres {
  port: number;
  /** `postgres://postgres@127.0.0.1:<port>/postgres` */
  adminUrl: string;
  start(): Promise<void>;
  /** `pg_ctl stop -m fast`: open connections are terminated, new ones refused. */
  stop(): Promise<void>;
  destroy(): Promise<void>;
}

/** initdb refuses to run as root; as root it runs as the postgres user. */
function asPostgres(command: string, args: string[]): [string, string[]] {
  return process.getuid?.() === 0
    ? ['runuser', ['-u', 'postgres', '--', command, ...args]]
    : [command, args];
}

export async function startOwnPostgres(binDir: string): Promise<OwnPostgres> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'grind-own-pg-'));
  if (process.getuid?.() === 0) await run('chown', ['postgres:postgres', dir]);
  const dataDir = path.join(dir, 'data');
  const port = await freePort();
  const pg = (command: string, args: string[]) =>
    run(...asPostgres(path.join(binDir, command), args));
  await pg('initdb', ['-D', dataDir, '-U', 'postgres', '-A', 'trust', '--no-sync', '-E', 'UTF8']);
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=100`;
  const own: OwnPostgres = {
    port,
    adminUrl: `postgres://postgres@127.0.0.1:${port}/postgres`,
    start: async () =>
      void (await pg('pg_ctl', [
        '-D',
        dataDir,
        '-o',
        options,
        '-l',
        path.join(dir, 'log'),
        '-w',
        'start',
      ])),
    stop: async () => void (await pg('pg_ctl', ['-D', dataDir, '-m', 'fast', '-w', 'stop'])),
    async destroy() {
      await own.stop().catch(() => {});
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
  await own.start();
  return own;
}

export interface OwnRedis {
  port: number;
  url: string;
  start(): Promise<void>;
  /** SIGTERM, and resolves once the process has gone. Nothing is persisted. */
  stop(): Promise<void>;
}

export async function startOwnRedis(serverPath: string): Promise<OwnRedis> {
  const port = await freePort();
  let child: ChildProcess | null = null;
  const own: OwnRedis = {
    port,
    url: `redis://127.0.0.1:${port}`,
    async start() {
      child = spawn(
        serverPath,
        ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
        {
          stdio: 'ignore',
        },
      );
      for (let i = 0; i < 100; i++) {
        const up = await run(serverPath.replace(/redis-server$/, 'redis-cli'), [
          '-p',
          String(port),
          'ping',
        ]).then(
          (r) => r.stdout.trim() === 'PONG',
          () => false,
        );
        if (up) return;
        await sleep(50);
      }
      throw new Error(`redis-server did not start on port ${port}`);
    },
    async stop() {
      const c = child;
      if (!c || c.exitCode !== null || c.signalCode !== null) return;
      const gone = new Promise((resolve) => c.once('exit', resolve));
      c.kill('SIGTERM');
      await gone;
    },
  };
  await own.start();
  return own;
}
