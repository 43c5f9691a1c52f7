import {
  parseOptions,
  positionals,
  UsageError,
  utc,
  type AdminCommand,
  type AdminContext,
} from '../admin/command.ts';
import { deleteMemeRow, listAllMemes, setMemeHidden } from './repository.ts';

/** What the gallery's operator commands use of the admin context. */
export type MemeAdminContext = Pick<AdminContext, 'db' | 'objectStore' | 'now' | 'print'>;
type MemeAdminCommand = AdminCommand<MemeAdminContext>;

function memeId(args: string[], usage: string): number {
  const [raw, ...rest] = args;
  if (raw === undefined || rest.length > 0 || !/^[1-9][0-9]{0,14}$/.test(raw)) {
    throw new UsageError(`usage: ${usage}`);
  }
  return Number(raw);
}

export const memesListCommand: MemeAdminCommand = {
  usage: 'memes:list [--limit 50]',
  summary: 'The newest memes, hidden ones too, with votes and uploader.',
  async run(ctx, args) {
    const { values, positionals: rest } = parseOptions(args, ['limit']);
    positionals(rest, []);
    const limit = Number(values.limit ?? '50');
    if (!Number.isInteger(limit) || limit < 1 || limit > 10_000) {
      throw new UsageError('--limit must be a whole number from 1 to 10000');
    }
    const rows = await listAllMemes(ctx.db, limit);
    if (rows.length === 0) {
      ctx.print('No memes yet.');
      return 0;
    }
    ctx.print(
      [
        'id'.padStart(6),
        'state ',
        '  up',
        'down',
        'category'.padEnd(17),
        'created (UTC)   ',
        'uploader'.padEnd(16),
        'title',
      ].join('  '),
    );
    for (const row of rows) {
      ctx.print(
        [
          String(row.id).padStart(6),
          row.hidden ? 'hidden' : 'shown ',
          String(row.upvotes).padStart(4),
          String(row.downvotes).padStart(4),
          row.category.padEnd(17),
          utc(row.created_at).slice(0, 16),
          (row.username ?? '(deleted)').padEnd(16),
          // Titles are user input: one line each, whatever they contain.
          JSON.stringify(row.title),
        ].join('  '),
      );
    }
    return 0;
  },
};

function visibilityCommand(hidden: boolean): MemeAdminCommand {
  const name = hidden ? 'memes:hide' : 'memes:unhide';
  return {
    usage: `${name} <id>`,
    summary: hidden
      ? 'Takes a meme out of the gallery at once (votes and images are kept).'
      : 'Puts a hidden meme back into the gallery.',
    async run(ctx, args) {
      const id = memeId(args, `${name} <id>`);
      if (!(await setMemeHidden(ctx.db, id, hidden))) {
        ctx.print(`No meme #${id}.`);
        return 1;
      }
      ctx.print(`Meme #${id} is now ${hidden ? 'hidden' : 'shown'}.`);
      return 0;
    },
  };
}

export const memesHideCommand = visibilityCommand(true);
export const memesUnhideCommand = visibilityCommand(false);

export const memesDeleteCommand: MemeAdminCommand = {
  usage: 'memes:delete <id>',
  summary: 'Deletes a meme, its votes and its images (unless another meme shares them).',
  async run(ctx, args) {
    const id = memeId(args, 'memes:delete <id>');
    const { deleted, orphanKeys } = await deleteMemeRow(ctx.db, id);
    if (!deleted) {
      ctx.print(`No meme #${id}.`);
      return 1;
    }
    for (const key of orphanKeys) await ctx.objectStore.deleteObject(key);
    const kept = 2 - orphanKeys.length;
    ctx.print(
      `Deleted meme #${id} and ${orphanKeys.length} image file(s)` +
        (kept > 0 ? `; ${kept} kept because other uploads share them.` : '.'),
    );
    return 0;
  },
};

/** The gallery's operator commands, by name, for the admin CLI's registry. */
export const memeAdminCommands: Record<string, MemeAdminCommand> = {
  'memes:list': memesListCommand,
  'memes:hide': memesHideCommand,
  'memes:unhide': memesUnhideCommand,
  'memes:delete': memesDeleteCommand,
};
