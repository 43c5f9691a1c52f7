import { isCharacterKey, getCharacter } from '#shared/characters.ts';
import {
  balanceAndLedgerSum,
  ledgerTotalsByReason,
  listUsers,
  ownedRows,
} from '../shop/repository.ts';
import { positionals, utc, type CliCommand } from '../cli-command.ts';
import { memberCommands } from '../accounts/cli-member.ts';

const characterName = (key: string) =>
  isCharacterKey(key) ? getCharacter(key).name : `${key} (retired)`;

const usersListCommand: CliCommand = {
  usage: 'users:list',
  summary: 'Every member with balance, selected character and how many characters they bought.',
  async run(ctx, args) {
    positionals(args, []);
    const users = await listUsers(ctx.db);
    if (users.length === 0) {
      ctx.print('No members yet.');
      return 0;
    }
    ctx.print(
      `${'#'.padStart(6)}  ${'Username'.padEnd(32)}  ${'Coins'.padStart(10)}  ${'Bought'.padStart(6)}  ${'Selected'.padEnd(11)}  Joined (UTC)`,
    );
    for (const u of users) {
      ctx.print(
        `${String(u.id).padStart(6)}  ${u.username.padEnd(32)}  ${String(u.coins).padStart(10)}  ${String(u.owned).padStart(6)}  ${u.selected_character_key.padEnd(11)}  ${utc(u.created_at)}`,
      );
    }
    ctx.print(`${users.length} member${users.length === 1 ? '' : 's'}.`);
    return 0;
  },
};

/** Every member, and one member in full: what an operator looks at before acting. */
export const userCliCommands: Record<string, CliCommand> = {
  'users:list': usersListCommand,
  ...memberCommands({
    'users:show': {
      summary: 'One member: balance checked against the ledger, coins by source, characters owned.',
      async run(ctx, user) {
        const [{ balance, sum }, totals, owned] = await Promise.all([
          balanceAndLedgerSum(ctx.db, user.id),
          ledgerTotalsByReason(ctx.db, user.id),
          ownedRows(ctx.db, user.id),
        ]);
        ctx.print(`Member #${user.id}: ${user.username}`);
        ctx.print(`Joined:    ${utc(user.created_at)} UTC`);
        ctx.print(
          `Coins:     ${balance} (ledger sum ${sum}${sum === balance ? ', consistent' : ', MISMATCH'})`,
        );
        for (const t of totals) {
          ctx.print(
            `  ${t.reason.padEnd(9)} ${String(t.total).padStart(10)} in ${t.count} entr${t.count === 1 ? 'y' : 'ies'}`,
          );
        }
        ctx.print(`Selected:  ${characterName(user.selected_character_key)}`);
        ctx.print(`Owned:     ${getCharacter('default').name} (always)`);
        for (const o of owned)
          ctx.print(
            `           ${characterName(o.character_key)}, since ${utc(o.acquired_at)} UTC`,
          );
        return sum === balance ? 0 : 1;
      },
    },
  }),
};
