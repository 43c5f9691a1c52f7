import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe } from 'vitest';
import { startNode, type NodeProcess } from './node-process.ts';
import { startScratchSite, type NodeEnv, type ScratchSite } from './scratch-site.ts';
import { TestClient } from './test-client.ts';

/** Where the site's database is made: two nodes need one PostgreSQL, so no server, no suite. */
const postgresAdminUrl = process.env.TEST_DATABASE_URL;
/** The Redis both nodes share in the block's second declaration. */
export const redisUrl = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
/** The site's address as the balancer in front of both nodes serves it. */
export const PUBLIC_ORIGIN = 'http://grind.example';

/** An address per simulated browser, as the balancer reports it (nodes run with TRUST_PROXY). */
export const clientIp = () =>
  `10.${randomBytes(1)[0]}.${randomBytes(1)[0]}.${randomBytes(1)[0]! | 1}`;

export interface TwoNodeSite {
  scratch: ScratchSite;
  /** A node's variables on this site (another node's, or the admin CLI's). */
  env(): NodeEnv;
  a: NodeProcess;
  /** Set it when the block restarts B. */
  b: NodeProcess;
}

/** A new browser behind the balancer, with an address of its own. */
export const newBrowser = () => TestClient.http(PUBLIC_ORIGIN, { clientIp: clientIp() });

/**
 * The describe block's site of two nodes (one PostgreSQL database and one bucket, and Redis with
 * `redis`): started before its first test, stopped after its last. The block's own beforeAll
 * hooks run after this one, so they can use it.
 */
function suiteTwoNodeSite(dataDirPrefix: string, redis: boolean): TwoNodeSite {
  const nodes = {} as TwoNodeSite;
  beforeAll(async () => {
    nodes.scratch = await startScratchSite({
      postgresAdminUrl,
      publicOrigin: PUBLIC_ORIGIN,
      dataDirPrefix,
    });
    nodes.env = () => nodes.scratch.nodeEnv({ REDIS_URL: redis ? redisUrl : undefined });
    // One after the other: both would race to run the migrations on the empty database.
    nodes.a = await startNode({ env: nodes.env() });
    nodes.b = await startNode({ env: nodes.env() });
  }, 120_000);
  afterAll(async () => {
    await Promise.all([nodes.a?.stop(), nodes.b?.stop()]);
    await nodes.scratch?.close();
  });
  return nodes;
}

/**
 * Declares `block` twice, each time on a two-node site of its own: first with the nodes sharing
 * only PostgreSQL, then with Redis as well; `$shared` in `title` names what carries the suite's
 * subject in each (`postgres`, then `redis`). Without TEST_DATABASE_URL both are skipped.
 */
export function describeOnTwoNodes(
  title: string,
  options: { postgres: string; redis: string; dataDirPrefix: string },
  block: (site: TwoNodeSite, redis: boolean) => void,
): void {
  if (!postgresAdminUrl) {
    console.warn(
      `"${title}": skipped, TEST_DATABASE_URL is not set (two nodes need one PostgreSQL)`,
    );
  }
  describe.skipIf(!postgresAdminUrl).each([
    { shared: options.postgres, redis: false },
    { shared: options.redis, redis: true },
  ])(title, ({ redis }) => block(suiteTwoNodeSite(options.dataDirPrefix, redis), redis));
}
