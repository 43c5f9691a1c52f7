import { ROLES, type Role } from '#shared/api/admin.ts';
import {
  findMember,
  positionals,
  UsageError,
  usernameArg,
  type AdminCommand,
} from '../cli/command.ts';
import { cliOperator } from './operator-log.ts';
import { resetPasskeys, setRole } from './roles.ts';

const isRole = (value: string): value is Role => (ROLES as readonly string[]).includes(value);

/** Roles and passkeys: the console's doors, opened and closed from the shell only. */
export const consoleAdminCommands: Record<string, AdminCommand> = {
  'users:role': {
    usage: `users:role <username> <${ROLES.join('|')}>`,
    summary:
      'Gives a member a console role (moderator: queue and members; admin: also the prize week), or takes it back with "member". Logged.',
    async run(ctx, args) {
      const [rawName, rawRole] = positionals(args, ['username', 'role']);
      const username = usernameArg(rawName!);
      if (!isRole(rawRole!)) {
        throw new UsageError(`"${rawRole}" is not a role: use ${ROLES.join(', ')}`);
      }
      const user = await findMember(ctx, username);
      if (!user) return 1;
      const before = await setRole(ctx.db, cliOperator(), user, rawRole, ctx.now());
      ctx.print(
        before === rawRole
          ? `${user.username} already had the role ${rawRole} (recorded again in the log).`
          : `${user.username} is now ${rawRole} (was ${before}); it holds from their next console request.`,
      );
      return 0;
    },
  },
  'users:passkeys:reset': {
    usage: 'users:passkeys:reset <username>',
    summary:
      'Removes every passkey of a member who lost their device; they add a new one with their password in the console. Logged.',
    async run(ctx, args) {
      const [raw] = positionals(args, ['username']);
      const user = await findMember(ctx, usernameArg(raw!));
      if (!user) return 1;
      const removed = await resetPasskeys(ctx.db, cliOperator(), user, ctx.now());
      ctx.print(
        `Removed ${removed} passkey(s) of ${user.username}; their sessions need a new passkey for the console.`,
      );
      return 0;
    },
  },
};
