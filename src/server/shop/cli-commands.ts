import {
  limitOption,
  parseOptions,
  positionals,
  UsageError,
  usernameArg,
  utc,
  type CliCommand,
} from '../cli-command.ts';
import { findMember } from '../accounts/cli-member.ts';
import { creditCoins } from './ledger.ts';
import { balanceAndLedgerSum, latestLedgerEntries } from './repository.ts';

/** users.coins is a 32-bit integer on PostgreSQL; a grant must not push a balance past it. */
const MAX_BALANCE = 2_147_483_647;
const NOTE_MAX = 200;
const LEDGER_DEFAULT_LIMIT = 100;

const GRANT_USAGE = 'coins:grant <username> <amount> [--reason TEXT]';
const LEDGER_USAGE = `coins:ledger <username> [--limit ${LEDGER_DEFAULT_LIMIT}]`;

const coinsGrantCommand: CliCommand = {
  usage: GRANT_USAGE,
  summary: "Adds coins to a member's balance, recorded in the ledger as an operator grant.",
  async run(ctx, args) {
    const { values, positionals: rest } = parseOptions(args, ['reason']);
    const [rawName, rawAmount] = positionals(rest, ['username', 'amount']);
    const username = usernameArg(rawName!);
    if (!/^[0-9]+$/.test(rawAmount!) || Number(rawAmount) < 1 || Number(rawAmount) > MAX_BALANCE) {
      throw new UsageError(
        `<amount> must be a whole number from 1 to ${MAX_BALANCE}, not "${rawAmount}"`,
      );
    }
    const amount = Number(rawAmount);
    let note: string | undefined;
    if (values.reason !== undefined) {
      note = values.reason.trim();
      if (note === '' || note.length > NOTE_MAX || /[\p{Cc}]/u.test(note)) {
        throw new UsageError(`--reason must be 1 to ${NOTE_MAX} characters on one line`);
      }
    }

    const user = await findMember(ctx, username);
    if (!user) return 1;
    if (user.coins + amount > MAX_BALANCE) {
      ctx.print(
        `Refused: ${user.username} has ${user.coins} coins; the largest balance is ${MAX_BALANCE}.`,
      );
      return 1;
    }
    const { balance } = await creditCoins(ctx.db, {
      userId: user.id,
      amount,
      reason: 'grant',
      ...(note === undefined ? {} : { note }),
      now: ctx.clock.now(),
    });
    ctx.print(
      `Granted ${amount} coins to ${user.username}${note ? ` (${note})` : ''}. Balance: ${balance}.`,
    );
    return 0;
  },
};

function signed(delta: number): string {
  return delta > 0 ? `+${delta}` : String(delta);
}

const coinsLedgerCommand: CliCommand = {
  usage: LEDGER_USAGE,
  summary: "A member's coin ledger (newest last) and a check that it adds up to the balance.",
  async run(ctx, args) {
    const { values, positionals: rest } = parseOptions(args, ['limit']);
    const [rawName] = positionals(rest, ['username']);
    const username = usernameArg(rawName!);
    const limit = limitOption(values.limit, LEDGER_DEFAULT_LIMIT, 100_000);

    const user = await findMember(ctx, username);
    if (!user) return 1;
    const { entries, total } = await latestLedgerEntries(ctx.db, user.id, limit);
    ctx.print(`Coin ledger of ${user.username} (member #${user.id}): ${total} entries`);
    if (entries.length < total)
      ctx.print(`(showing the latest ${entries.length}; --limit to see more)`);
    if (entries.length > 0) {
      ctx.print(
        `${'#'.padStart(7)}  ${'When (UTC)'.padEnd(19)}  ${'Change'.padStart(8)}  ${'Balance'.padStart(8)}  ${'Reason'.padEnd(9)}  Detail`,
      );
    }
    for (const e of entries) {
      const detail =
        e.reason === 'game-run'
          ? `run ${e.run_id ?? '?'}`
          : e.reason === 'purchase'
            ? `character ${e.character_key ?? '?'}`
            : // Operator notes are free text: one line each, whatever they contain.
              e.note === null
              ? ''
              : JSON.stringify(e.note);
      ctx.print(
        `${String(e.id).padStart(7)}  ${utc(e.created_at)}  ${signed(e.delta).padStart(8)}  ${String(e.balance_after).padStart(8)}  ${e.reason.padEnd(9)}  ${detail}`,
      );
    }
    const { balance, sum } = await balanceAndLedgerSum(ctx.db, user.id);
    if (sum === balance) {
      ctx.print(`Balance ${balance} = ledger sum ${sum}: consistent.`);
      return 0;
    }
    ctx.print(`MISMATCH: balance ${balance} but the ledger sums to ${sum}.`);
    return 1;
  },
};

/** The shop's operator commands, by name, for the CLI's registry. */
export const shopCliCommands: Record<string, CliCommand> = {
  'coins:grant': coinsGrantCommand,
  'coins:ledger': coinsLedgerCommand,
};
