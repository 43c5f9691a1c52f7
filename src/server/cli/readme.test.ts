import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { sql } from 'kysely';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '#test-support/node-process.ts';
import { loadConfig } from '../config.ts';
import { openMigratedDatabase } from '../db/migrate.ts';
import { cliCommands, runCli } from './registry.ts';

// The README's Operating section is the operator's guide: what it tells them to type must be what
// the CLI has and must work as written (issue 42). The rehearsal's steps are followed by
// tests/e2e/rehearsal.spec.ts.

const readme = fs.readFileSync(path.join(REPO_ROOT, 'README.md'), 'utf8');

/** The README's text from a heading to the next one of the same level or above. */
function section(heading: string): string {
  const start = readme.indexOf(`${heading}\n`);
  if (start < 0) throw new Error(`README.md has no "${heading}"`);
  const level = heading.split(' ')[0]!;
  const rest = readme.slice(start + heading.length);
  const end = rest.search(new RegExp(`\\n#{1,${level.length}} `));
  return end < 0 ? rest : rest.slice(0, end);
}

/** The CLI's answer to a command line, run in this process without a database. */
async function admin(...argv: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runCli(argv, { out: (l) => out.push(l), err: (l) => err.push(l) }, () => {
    throw new Error('this command must not open the database');
  });
  return { code, out, err };
}

describe("the README's Operating guide", () => {
  it('lists in its command table every command --help lists, and no other', () => {
    const rows = section('### Operator commands')
      .split('\n')
      .filter((line) => line.startsWith('| `'));
    const documented = new Set(
      rows.flatMap((row) =>
        [...row.split(' | ')[0]!.matchAll(/`([a-z]+(?::[a-z]+)*)[ `]/g)].map((m) => m[1]!),
      ),
    );
    expect([...documented].sort()).toEqual(Object.keys(cliCommands).sort());
  });

  it('prints the two-role SQL without a database', async () => {
    const res = await admin('db:roles');
    expect(res.code).toBe(0);
    expect(res.out).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^CREATE ROLE grind_owner LOGIN PASSWORD '[\w-]{24}';$/),
        expect.stringMatching(/^CREATE ROLE grind_app LOGIN PASSWORD '[\w-]{24}';$/),
        'CREATE DATABASE grind OWNER grind_owner;',
        '\\connect grind',
        'ALTER SCHEMA public OWNER TO grind_owner;',
        'REVOKE CREATE ON SCHEMA public FROM PUBLIC;',
      ]),
    );
    expect((await admin('db:roles', '--owner', 'Robert"); DROP')).code).toBe(2);
  });

  const superuser = process.env.TEST_DATABASE_URL;
  it.skipIf(superuser === undefined)(
    'starts the site on PostgreSQL with the lines "On PostgreSQL" gives, as a production node starts',
    { timeout: 60_000 },
    async () => {
      const lines = /```sh\n([\s\S]*?)```/.exec(section('### On PostgreSQL'))![1]!.split('\n');
      // mkdir -p data && npm run -s admin -- db:roles --apply <superuser> > data/postgres.env
      const make = /npm run -s admin -- (db:roles .*?) > (\S+)$/.exec(lines[0]!)!;
      const [, command, envFile] = make;
      expect(envFile).toBe('data/postgres.env');
      expect(lines[1]).toBe(`set -a && . ./${envFile} && set +a && npm start`);
      // This test's own names and server: roles are global to a PostgreSQL server.
      const name = `readme_${randomBytes(4).toString('hex')}`;
      const argv = command!
        .split(' ')
        .map((arg) => (arg.startsWith('postgres://') ? superuser! : arg))
        .concat(['--owner', `${name}_owner`, '--app', `${name}_app`, '--database', name]);
      const made = await admin(...argv);
      try {
        expect(made.err).toEqual([]);
        expect(made.code).toBe(0);
        // What `set -a && . ./data/postgres.env` puts in the environment.
        const env = Object.fromEntries(
          made.out.filter((l) => !l.startsWith('#')).map((l) => l.split(/=(.*)/).slice(0, 2)),
        );
        expect(Object.keys(env)).toEqual(['DATABASE_MIGRATION_URL', 'DATABASE_URL']);
        // NODE_ENV left unset: production, which refuses a role that could rewrite the records.
        const config = loadConfig(env);
        const db = await openMigratedDatabase(config.database, { requireAppRole: true });
        try {
          await expect(sql`delete from prize_events`.execute(db)).rejects.toThrow(
            /permission denied/,
          );
        } finally {
          await db.destroy();
        }
      } finally {
        const client = new pg.Client({ connectionString: superuser });
        await client.connect();
        try {
          await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
          await client.query(`DROP ROLE IF EXISTS ${name}_app`);
          await client.query(`DROP ROLE IF EXISTS ${name}_owner`);
        } finally {
          await client.end();
        }
      }
    },
  );
});
