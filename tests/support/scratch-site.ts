import fs from 'node:fs';
import path from 'node:path';
import { createScratchPostgres, type ScratchPostgres } from './scratch-postgres.ts';
import { newSessionSecret, scratchDir, startScratchS3, type ScratchS3 } from './scratch.ts';
import { sleep } from './sleep.ts';

/** The server variables of one node of a scratch site (see node-process.ts). */
export type NodeEnv = Record<string, string | undefined> & {
  DATA_DIR: string;
  SESSION_SECRET: string;
};

/**
 * What the nodes of one site share, as production sets it up: with PostgreSQL, one database and
 * one S3 bucket; without, nothing (each node keeps SQLite and the local store in its folder).
 */
export interface ScratchSite {
  database: ScratchPostgres | undefined;
  s3: ScratchS3 | undefined;
  /**
   * A new node's variables: a data folder of its own, the site's database, bucket, secret and
   * public origin, behind a trusted proxy (each simulated browser has its own address, as
   * behind a balancer, so the per-address limits apply per browser). `extra` adds or overrides.
   */
  nodeEnv(extra?: Record<string, string | undefined>): NodeEnv;
  /** Drops the database and the bucket and removes the data folders; stop the nodes first. */
  close(): Promise<void>;
}

export async function startScratchSite(options: {
  /** An admin connection to make the site's PostgreSQL database with; none: SQLite. */
  postgresAdminUrl: string | undefined;
  publicOrigin: string;
  dataDirPrefix: string;
}): Promise<ScratchSite> {
  const [database, s3] = options.postgresAdminUrl
    ? await Promise.all([createScratchPostgres(options.postgresAdminUrl), startScratchS3()])
    : [undefined, undefined];
  const secret = newSessionSecret();
  const dataDirs: string[] = [];
  return {
    database,
    s3,
    nodeEnv(extra = {}) {
      const dataDir = scratchDir(options.dataDirPrefix);
      dataDirs.push(dataDir);
      return {
        DATA_DIR: dataDir,
        DATABASE_URL: database?.url,
        DATABASE_MIGRATION_URL: database?.migrationUrl,
        ...s3?.env,
        SESSION_SECRET: secret,
        PUBLIC_ORIGIN: options.publicOrigin,
        TRUST_PROXY: 'true',
        CLIENT_DIST_DIR: path.join(dataDir, 'no-client'),
        ...extra,
      };
    },
    async close() {
      if (database) {
        // pg's pool.end() resolves before its sockets close; dropping WITH FORCE at once would
        // kill them mid-goodbye.
        await sleep(200);
        await database.drop();
      }
      await s3?.close();
      for (const dir of dataDirs) fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
