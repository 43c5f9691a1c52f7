import fs from 'node:fs';
import path from 'node:path';
import { sql } from 'kysely';
import { SQLite } from '../db/sqlite.ts';
import { positionals, UsageError, type CliCommand, type CliContext } from '../cli-command.ts';

const USAGE = 'backup <file>';

export const backupCommand: CliCommand<Pick<CliContext, 'config' | 'db' | 'print'>> = {
  usage: USAGE,
  summary:
    'SQLite: a consistent copy of the live database. PostgreSQL: the pg_dump command to run.',
  async run(ctx, args) {
    const [raw] = positionals(args, ['file']);
    const target = path.resolve(raw!);

    if (ctx.config.database.kind === 'postgres') {
      // The URL may hold a password: point at the variable rather than print it.
      ctx.print(
        'PostgreSQL is backed up with its own tools. With DATABASE_URL set as for the server, run:',
      );
      ctx.print(
        `  pg_dump --format=custom --no-owner --no-acl --file=${JSON.stringify(target)} --dbname="$DATABASE_URL"`,
      );
      ctx.print(
        'Restore into an empty database as the migration role (the next start grants the app role):',
      );
      ctx.print(
        `  pg_restore --no-owner --no-acl --dbname="$DATABASE_MIGRATION_URL" ${JSON.stringify(target)}`,
      );
      return 0;
    }

    if (target === path.resolve(ctx.config.database.file)) {
      throw new UsageError('<file> must not be the live database itself');
    }
    if (fs.existsSync(target)) throw new UsageError(`${target} already exists; choose a new file`);
    if (!fs.existsSync(path.dirname(target))) {
      throw new UsageError(`The folder ${path.dirname(target)} does not exist`);
    }
    // VACUUM INTO reads one snapshot of the database while the server keeps writing (WAL), and
    // writes a compact copy that includes every committed transaction up to that moment.
    await sql`VACUUM INTO ${target}`.execute(ctx.db);

    const copy = new SQLite(target, { readonly: true, fileMustExist: true });
    try {
      const check = copy.pragma('integrity_check', { simple: true });
      const users = copy.prepare('SELECT count(*) AS n FROM users').get() as { n: number };
      const { size } = fs.statSync(target);
      if (check !== 'ok') {
        ctx.print(`Backup written to ${target} but its integrity check says: ${String(check)}`);
        return 1;
      }
      ctx.print(`Backed up to ${target} (${size} bytes, integrity ok, ${users.n} members).`);
      return 0;
    } finally {
      copy.close();
    }
  },
};
