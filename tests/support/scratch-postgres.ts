import { randomBytes } from 'node:crypto';
import pg from 'pg';

export interface ScratchPostgres {
  url: string;
  drop(): Promise<void>;
}

/** A fresh, empty database on the server `adminUrl` points at (e.g. TEST_DATABASE_URL). */
export async function createScratchPostgres(
  adminUrl: string,
  prefix = 'grind_scale',
): Promise<ScratchPostgres> {
  const name = `${prefix}_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const client = new pg.Client({ connectionString: adminUrl });
      await client.connect();
      try {
        await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      } finally {
        await client.end();
      }
    },
  };
}
