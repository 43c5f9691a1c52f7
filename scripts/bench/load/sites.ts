// The servers under load: for each setup (one node on SQLite, one on PostgreSQL, two on one
// PostgreSQL) a site per tree measured, started exactly as production runs (startNode), seeded,
// with a signed-in member and a visitor's CSRF token; and the bare Fastify baseline beside them.
import fs from 'node:fs';
import path from 'node:path';
import type { Kysely } from 'kysely';
import { authPaths, memePaths } from '#shared/api/paths.ts';
import { createDatabase } from '#server/db/create-database.ts';
import type { Database } from '#server/db/database.ts';
import { freePort, startNode, type NodeProcess } from '#test-support/node-process.ts';
import { createScratchPostgres } from '#test-support/scratch-postgres.ts';
import { newSessionSecret, scratchDir } from '#test-support/scratch.ts';
import type { BuiltTree } from '../trees.ts';
import type { Visitor } from './players.ts';
import { seed } from './seed.ts';

export interface Setup {
  name: string;
  database: 'sqlite' | 'postgres';
  nodes: 1 | 2;
}

export const SETUPS: Record<string, Setup> = {
  sqlite: { name: 'one node, SQLite', database: 'sqlite', nodes: 1 },
  postgres: { name: 'one node, PostgreSQL', database: 'postgres', nodes: 1 },
  'postgres-2': { name: 'two nodes, one PostgreSQL', database: 'postgres', nodes: 2 },
};

/** Votes go to the memes on everybody's first page: the contended case. */
const HOT_MEMES = 24;

export interface Site {
  tree: BuiltTree;
  /** Its nodes' origins; load is spread over them as a round-robin balancer would. */
  origins: string[];
  /** The site's database, for seeding and for checking what the load left behind. */
  db: Kysely<Database>;
  /** A visitor's csrf cookie and token, shared by every synthetic visitor. */
  visitor: Visitor;
  /** A signed-in member's session cookie (`sid=...`). */
  memberCookie: string;
  hotMemes: number[];
  close(): Promise<void>;
}

export async function startSite(
  setup: Setup,
  tree: BuiltTree,
  options: { pgAdminUrl: string; logLevel: string },
): Promise<Site> {
  const cleanups: (() => Promise<unknown> | unknown)[] = [];
  const close = async () => {
    for (const cleanup of cleanups.reverse())
      await Promise.resolve(cleanup()).catch((error: unknown) => console.error(error));
  };
  try {
    const pgDb =
      setup.database === 'postgres'
        ? await createScratchPostgres(options.pgAdminUrl, 'grind_bench')
        : undefined;
    if (pgDb) cleanups.push(() => pgDb.drop());
    const secret = newSessionSecret();
    const nodes: NodeProcess[] = [];
    cleanups.push(() => Promise.all(nodes.map((n) => n.stop())));
    const dataDirs: string[] = [];
    // A tree from before the migration role (docs/decisions/019-append-only-records-and-wallet-changes.md)
    // migrates through DATABASE_URL, so it is given the owner there.
    const splitRoles = fs.existsSync(path.join(tree.checkout, 'src/server/db/roles.ts'));
    for (let i = 0; i < setup.nodes; i++) {
      const dataDir = scratchDir('grind-bench-node-');
      cleanups.push(() => fs.rmSync(dataDir, { recursive: true, force: true }));
      dataDirs.push(dataDir);
      const port = await freePort();
      nodes.push(
        await startNode({
          cwd: tree.checkout,
          keepOutput: 0,
          // The machine is shared with test runs: a start-up (tsx compiling the server) can take
          // a minute there, which startNode's default 45 s did not wait for.
          readyTimeoutMs: 180_000,
          env: {
            NODE_ENV: 'production',
            PORT: String(port),
            DATA_DIR: dataDir,
            DATABASE_URL: splitRoles ? pgDb?.url : pgDb?.migrationUrl,
            DATABASE_MIGRATION_URL: splitRoles ? pgDb?.migrationUrl : undefined,
            SESSION_SECRET: secret,
            // Visitors come from many addresses, as behind a balancer; per-address limits then
            // apply per visitor rather than to the whole benchmark.
            TRUST_PROXY: 'true',
            PUBLIC_ORIGIN: `http://127.0.0.1:${port}`,
            LOG_LEVEL: options.logLevel,
            CLIENT_DIST_DIR: tree.distDir,
          },
        }),
      );
    }
    const origins = nodes.map((n) => n.origin);
    const db = createDatabase(
      pgDb
        ? { kind: 'postgres', url: pgDb.migrationUrl }
        : { kind: 'sqlite', file: path.join(dataDirs[0]!, 'app.db') },
    );
    cleanups.push(() => db.destroy());
    await seed(db);

    const csrf = await fetch(`${origins[0]}${authPaths.csrfToken}`);
    const cookie = csrf.headers.getSetCookie()[0]!.split(';', 1)[0]!;
    const { csrfToken } = (await csrf.json()) as { csrfToken: string };
    const registered = await fetch(`${origins[0]}${authPaths.register}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-forwarded-for': '10.250.0.1' },
      body: JSON.stringify({ username: 'bench_member', password: 'bench-password' }),
    });
    if (registered.status !== 201) throw new Error(`register answered ${registered.status}`);
    const memberCookie = registered.headers
      .getSetCookie()
      .map((c) => c.split(';', 1)[0]!)
      .find((c) => c.startsWith('sid='))!;
    // The body is the page of memes itself (src/shared/api/memes.ts) (commits before issue 22 answered
    // `{ memes, nextCursor }`; read both, so such a commit can be the baseline).
    type MemeIds = { id: number }[];
    const page = (await (await fetch(`${origins[0]}${memePaths.list}`)).json()) as
      MemeIds | { memes: MemeIds };
    const memes = Array.isArray(page) ? page : page.memes;
    return {
      tree,
      origins,
      db,
      visitor: { cookie, csrfToken },
      memberCookie,
      hotMemes: memes.slice(0, HOT_MEMES).map((m) => m.id),
      close,
    };
  } catch (error) {
    await close();
    throw error;
  }
}

/** The bare Fastify app (scripts/bench/bare-server.ts), the machine's ceiling. */
export function startBare(): Promise<NodeProcess> {
  return startNode({
    script: 'scripts/bench/bare-server.ts',
    readyPath: '/bare',
    keepOutput: 0,
    env: {},
  });
}
