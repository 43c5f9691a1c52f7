import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll } from 'vitest';
import { startNode, type NodeProcess } from './node-process.ts';
import { startScratchSite, type NodeEnv, type ScratchSite } from './scratch-site.ts';

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

/**
 * The describe block's site of two nodes (one PostgreSQL database and one bucket, and Redis with
 * `redisUrl`): started before its first test, stopped after its last. The block's own beforeAll
 * hooks run after this one, so they can use it.
 */
export function suiteTwoNodeSite(options: {
  postgresAdminUrl: string | undefined;
  publicOrigin: string;
  dataDirPrefix: string;
  /** REDIS_URL for both nodes; none: they share only PostgreSQL. */
  redisUrl: string | undefined;
}): TwoNodeSite {
  const { redisUrl, ...siteOptions } = options;
  const nodes = {} as TwoNodeSite;
  beforeAll(async () => {
    nodes.scratch = await startScratchSite(siteOptions);
    nodes.env = () => nodes.scratch.nodeEnv({ REDIS_URL: redisUrl });
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
