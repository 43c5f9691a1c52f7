import {
  applyTwoRoles,
  isPlainIdentifier,
  twoRoleSql,
  twoRoleUrls,
  type TwoRoles,
} from '../db/roles.ts';
import { parseOptions, UsageError, type CliCommand, type CliContext } from '../cli-command.ts';
import { randomToken } from '../security/random-token.ts';

const USAGE =
  'db:roles [--apply SUPERUSER_URL] [--owner grind_owner] [--app grind_app] [--database grind]';

/** A password for a connection URL: random, and nothing in it needs escaping. */
const password = () => randomToken(18);

function nameOption(value: string | undefined, fallback: string, option: string): string {
  const name = value ?? fallback;
  if (!isPlainIdentifier(name)) {
    throw new UsageError(`--${option} must be a lowercase name (letters, digits, _)`);
  }
  return name;
}

/**
 * PostgreSQL's two roles (docs/deployment.md): the owner that migrates (DATABASE_MIGRATION_URL)
 * and the app role that serves and cannot rewrite the append-only records (DATABASE_URL). Prints
 * the SQL to run as a superuser, or with --apply runs it and prints the two variables, ready for
 * a file the shell reads (README, "On PostgreSQL"). Opens no database of the site's: there may
 * be none yet.
 */
export const dbRolesCommand: CliCommand<Pick<CliContext, 'print'>> = {
  usage: USAGE,
  summary:
    'PostgreSQL: the SQL that creates the migration role, the app role and the database (random passwords); with --apply, runs it as the superuser URL given and prints DATABASE_MIGRATION_URL and DATABASE_URL.',
  opensDatabase: false,
  async run(ctx, args) {
    const { values, positionals } = parseOptions(args, ['apply', 'owner', 'app', 'database']);
    if (positionals.length > 0) throw new UsageError(`Unexpected argument "${positionals[0]}"`);
    const roles: TwoRoles = {
      owner: { name: nameOption(values.owner, 'grind_owner', 'owner'), password: password() },
      app: { name: nameOption(values.app, 'grind_app', 'app'), password: password() },
      database: nameOption(values.database, 'grind', 'database'),
    };
    if (roles.owner.name === roles.app.name) {
      throw new UsageError('--owner and --app must be two roles');
    }
    if (values.apply !== undefined) {
      if (!/^postgres(ql)?:\/\//.test(values.apply)) {
        throw new UsageError('--apply takes a superuser URL, postgres://...');
      }
      await applyTwoRoles(values.apply, roles);
      const { migrationUrl, appUrl } = twoRoleUrls(values.apply, roles);
      ctx.print(
        `# db:roles: ${roles.owner.name} owns the database ${roles.database}, ${roles.app.name} serves it`,
      );
      ctx.print(`DATABASE_MIGRATION_URL=${migrationUrl}`);
      ctx.print(`DATABASE_URL=${appUrl}`);
      return 0;
    }
    const sql = twoRoleSql(roles);
    const { migrationUrl, appUrl } = twoRoleUrls('postgres://HOST:5432/', roles);
    ctx.print('-- As a PostgreSQL superuser, once (psql -f this file, or --apply to run it):');
    for (const line of sql.server) ctx.print(line);
    ctx.print(`\\connect ${roles.database}`);
    for (const line of sql.database) ctx.print(line);
    ctx.print('-- Then start every node with:');
    ctx.print(`--   DATABASE_MIGRATION_URL=${migrationUrl}`);
    ctx.print(`--   DATABASE_URL=${appUrl}`);
    return 0;
  },
};
