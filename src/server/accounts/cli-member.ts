import { positionals, usernameArg, type CliCommand, type CliContext } from '../cli-command.ts';
import { findUserByUsername } from './repository.ts';

/** The member of that name, or undefined once the operator is told there is none. */
export async function findMember(ctx: Pick<CliContext, 'db' | 'print'>, username: string) {
  const user = await findUserByUsername(ctx.db, username);
  if (!user) ctx.print(`No member named "${username}".`);
  return user;
}

/** A member as the CLI commands see them (the row findMember gives). */
type Member = NonNullable<Awaited<ReturnType<typeof findUserByUsername>>>;

/** A command on one member: what it tells the operator, and what it does to that member. */
interface MemberCommand {
  summary: string;
  /** Resolves to the process exit code, as CliCommand.run does. */
  run(ctx: CliContext, user: Member): Promise<number>;
}

/**
 * Commands, by name, whose one argument is a member's username (`<name> <username>`): each gets
 * that member, and ends with 1 once the operator is told there is none.
 */
export function memberCommands(
  commands: Record<string, MemberCommand>,
): Record<string, CliCommand> {
  return Object.fromEntries(
    Object.entries(commands).map(([name, command]) => [
      name,
      {
        usage: `${name} <username>`,
        summary: command.summary,
        async run(ctx: CliContext, args: string[]) {
          const [raw] = positionals(args, ['username']);
          const user = await findMember(ctx, usernameArg(raw!));
          return user ? command.run(ctx, user) : 1;
        },
      },
    ]),
  );
}
