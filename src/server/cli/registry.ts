import { consoleCliCommands } from '../console/cli-commands.ts';
import { burnCliCommands } from '../burns/cli-commands.ts';
import { gameCliCommands } from '../game/cli-commands.ts';
import { memeCliCommands } from '../memes/cli-commands.ts';
import { prizeCliCommands } from '../prize/cli-commands.ts';
import { rehearsalCliCommands } from '../rehearsal/cli-commands.ts';
import { raidCliCommands } from '../raid/cli-commands.ts';
import { shopCliCommands } from '../shop/cli-commands.ts';
import { accountCliCommands } from './account-commands.ts';
import { backupCommand } from './backup-command.ts';
import { dbRolesCommand } from './db-roles-command.ts';
import { UsageError, type CliCommand, type CliContext } from '../cli-command.ts';
import { userCliCommands } from './user-commands.ts';

function merge(...groups: Array<Record<string, CliCommand>>): Readonly<Record<string, CliCommand>> {
  const all: Record<string, CliCommand> = {};
  for (const group of groups) {
    for (const [name, command] of Object.entries(group)) {
      // Two domains claiming one name would silently hide a command: fail at start instead.
      if (Object.hasOwn(all, name)) throw new Error(`Two CLI commands are named ${name}`);
      all[name] = command;
    }
  }
  return all;
}

/** Every operator command by name; a domain adds its own through its cli-commands module. */
export const cliCommands = merge(
  userCliCommands,
  accountCliCommands,
  shopCliCommands,
  gameCliCommands,
  prizeCliCommands,
  burnCliCommands,
  rehearsalCliCommands,
  memeCliCommands,
  consoleCliCommands,
  raidCliCommands,
  { backup: backupCommand, 'db:roles': dbRolesCommand },
);

const PROGRAM = 'npm run admin --';

function isUsageError(error: unknown): error is UsageError {
  return error instanceof UsageError;
}

export function helpText(): string[] {
  const lines = [`Usage: ${PROGRAM} <command> [arguments]`, '', 'Commands:'];
  for (const command of Object.values(cliCommands)) {
    lines.push(`  ${command.usage}`, `      ${command.summary}`);
  }
  lines.push(
    '',
    `"${PROGRAM} <command> --help" describes one command. The database is the one the server`,
    'uses (DATA_DIR or DATABASE_URL, read from the environment like the server does).',
  );
  return lines;
}

export interface CliOutput {
  out(line: string): void;
  err(line: string): void;
}

export interface OpenedContext {
  ctx: CliContext;
  close(): Promise<void>;
}

/**
 * Runs one command line and resolves to the exit code: 0 done, 1 the command refused or failed,
 * 2 the command line itself was wrong. The database is opened only for a command that runs.
 */
export async function runCli(
  argv: string[],
  io: CliOutput,
  open: (print: (line: string) => void) => Promise<OpenedContext>,
): Promise<number> {
  const [name, ...args] = argv;
  if (name === undefined) {
    helpText().forEach((line) => io.err(line));
    return 2;
  }
  if (name === '--help' || name === '-h' || name === 'help') {
    helpText().forEach((line) => io.out(line));
    return 0;
  }
  const command = Object.hasOwn(cliCommands, name) ? cliCommands[name] : undefined;
  if (command === undefined) {
    io.err(`Unknown command "${name}". "${PROGRAM} --help" lists the commands.`);
    return 2;
  }
  if (args.includes('--help') || args.includes('-h')) {
    io.out(`Usage: ${PROGRAM} ${command.usage}`);
    io.out(`  ${command.summary}`);
    return 0;
  }

  let opened: OpenedContext | undefined;
  try {
    if (command.opensDatabase === false) {
      // Such a command declares `print` as all it needs (CliCommand.opensDatabase).
      return await command.run({ print: io.out } as CliContext, args);
    }
    opened = await open(io.out);
    return await command.run(opened.ctx, args);
  } catch (error) {
    if (isUsageError(error)) {
      const message = (error as Error).message;
      // Some commands' message is their usage line already.
      if (!/^usage:/i.test(message)) io.err(`Error: ${message}`);
      io.err(`Usage: ${PROGRAM} ${command.usage}`);
      return 2;
    }
    io.err(`Error: ${error instanceof Error ? error.message : String(error)}`);
    return 1;
  } finally {
    await opened?.close();
  }
}
