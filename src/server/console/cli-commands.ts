import { APPEAL_VERDICTS } from '#shared/api/console/queue.ts';
import { type Role, ROLES } from '#shared/api/console/common.ts';
import {
  limitOption,
  parseOptions,
  positionals,
  requiredOption,
  reasonArg,
  UsageError,
  usernameArg,
  utc,
  type CliCommand,
} from '../cli-command.ts';
import { findMember } from '../accounts/cli-member.ts';
import { HttpError } from '../http-error.ts';
import { decideAppeal, openAppeals } from '../suspensions/appeals.ts';
import { cliOperator } from '../db/operator-log.ts';
import { resetPasskeys, setRole } from './roles.ts';

const isRole = (value: string): value is Role => (ROLES as readonly string[]).includes(value);
const isVerdict = (value: string): value is (typeof APPEAL_VERDICTS)[number] =>
  (APPEAL_VERDICTS as readonly string[]).includes(value);

/**
 * Roles and passkeys (the console's doors, opened and closed from the shell only), and appeals
 * (the same service as the console's queue).
 */
export const consoleCliCommands: Record<string, CliCommand> = {
  'users:role': {
    usage: `users:role <username> <${ROLES.join('|')}>`,
    summary:
      'Gives a member a console role (moderator: queue and members; admin: also the prize week), or takes it back with "member", and ends their sessions. Logged.',
    async run(ctx, args) {
      const [rawName, rawRole] = positionals(args, ['username', 'role']);
      const username = usernameArg(rawName!);
      if (!isRole(rawRole!)) {
        throw new UsageError(`"${rawRole}" is not a role: use ${ROLES.join(', ')}`);
      }
      const user = await findMember(ctx, username);
      if (!user) return 1;
      const before = await setRole(ctx.db, cliOperator(), user, rawRole, ctx.clock.now());
      ctx.print(
        before === rawRole
          ? `${user.username} already had the role ${rawRole} (recorded again in the log).`
          : `${user.username} is now ${rawRole} (was ${before}); their sessions are ended, so they sign in again.`,
      );
      return 0;
    },
  },
  'users:passkeys:reset': {
    usage: 'users:passkeys:reset <username>',
    summary:
      'Removes every passkey of a member who lost their device and ends their sessions; they sign in and add a new one with their password in the console. Logged.',
    async run(ctx, args) {
      const [raw] = positionals(args, ['username']);
      const user = await findMember(ctx, usernameArg(raw!));
      if (!user) return 1;
      const removed = await resetPasskeys(ctx.db, cliOperator(), user, ctx.clock.now());
      ctx.print(
        `Removed ${removed} passkey(s) of ${user.username} and ended their sessions; they sign in again and add a passkey with their password in the console.`,
      );
      return 0;
    },
  },
  'appeals:list': {
    usage: 'appeals:list [--limit 50]',
    summary:
      "Suspended members' appeals waiting for a decision, oldest first (the console's queue lists the same).",
    async run(ctx, args) {
      const { values, positionals: rest } = parseOptions(args, ['limit']);
      positionals(rest, []);
      const appeals = await openAppeals(
        ctx.db,
        limitOption(values.limit, 50, 1000),
        ctx.clock.now(),
      );
      if (appeals.length === 0) {
        ctx.print('No appeals waiting.');
        return 0;
      }
      for (const a of appeals) {
        const ends =
          a.suspension.endsAt === null ? 'for good' : `until ${utc(a.suspension.endsAt)}`;
        const state = a.suspension.liftedAt === null ? `suspended ${ends}` : 'lifted since';
        ctx.print(`#${a.id}  ${a.member}  ${state}: ${JSON.stringify(a.suspension.reason)}`);
        // Appeals are member input: one line each, whatever they contain.
        ctx.print(`        appealed ${utc(a.createdAt)}: ${JSON.stringify(a.text)}`);
      }
      ctx.print('Decide each with appeals:decide <id> <uphold|lift> --reason "..."');
      return 0;
    },
  },
  'appeals:decide': {
    usage: `appeals:decide <id> <${APPEAL_VERDICTS.join('|')}> --reason "told to the member, kept in the log"`,
    summary:
      "Upholds an appeal or lifts the appealed suspension, as the console's queue does; the member is told at their next visit. Logged.",
    async run(ctx, args) {
      const { values, positionals: rest } = parseOptions(args, ['reason']);
      const [rawId, verdict] = positionals(rest, ['id', 'uphold|lift']);
      if (!/^[1-9][0-9]{0,9}$/.test(rawId!)) throw new UsageError(`"${rawId}" is not an appeal id`);
      if (!isVerdict(verdict!)) {
        throw new UsageError(`"${verdict}" is not a decision: use ${APPEAL_VERDICTS.join(' or ')}`);
      }
      const reason = reasonArg(requiredOption(values, 'reason'));
      try {
        const appeal = await decideAppeal(
          ctx.db,
          cliOperator(),
          Number(rawId),
          verdict,
          reason,
          ctx.clock.now(),
        );
        ctx.print(
          `Appeal #${appeal.id} of ${appeal.member}: ${appeal.decision}` +
            (verdict === 'lift' ? '; the suspension is over.' : '; the suspension stands.'),
        );
        return 0;
      } catch (error) {
        // No such appeal, or decided already: the console's refusal, as a line.
        if (error instanceof HttpError && error.statusCode < 500) {
          ctx.print(error.message);
          return 1;
        }
        throw error;
      }
    },
  },
};
