import {
  limitOption,
  parseOptions,
  positionals,
  UsageError,
  utc,
  type CliCommand,
  type CliContext,
} from '../cli-command.ts';
import { REPORT_REASON_LABELS, type ReportReason } from '#shared/api/memes.ts';
import { cliOperator } from '../db/operator-log.ts';
import { reportQueue } from './report-queue.ts';
import { decide, REPORTS_TO_HIDE, type Decision } from './moderation.ts';
import { listAllMemes } from './repository.ts';

/** What the gallery's operator commands use of the admin context. */
export type MemeCliContext = Pick<CliContext, 'db' | 'objectStore' | 'clock' | 'print'>;
type MemeCliCommand = CliCommand<MemeCliContext>;

function memeId(args: string[], usage: string): number {
  const [raw, ...rest] = args;
  if (raw === undefined || rest.length > 0 || !/^[1-9][0-9]{0,14}$/.test(raw)) {
    throw new UsageError(`usage: ${usage}`);
  }
  return Number(raw);
}

const LISTING_LIMIT = 50;

/**
 * A listing command (`<name> [--limit 50]`): up to `--limit` rows from `load`, `none` when there
 * are none, else a table (columns two spaces apart), each row with its `detail` line below, then
 * `footer`.
 */
function listingCommand<Row>(listing: {
  name: string;
  summary: string;
  load(db: MemeCliContext['db'], limit: number): Promise<Row[]>;
  none: string;
  header: string[];
  cells(row: Row): string[];
  detail?(row: Row): string;
  footer?: string;
}): MemeCliCommand {
  return {
    usage: `${listing.name} [--limit ${LISTING_LIMIT}]`,
    summary: listing.summary,
    async run(ctx, args) {
      const { values, positionals: rest } = parseOptions(args, ['limit']);
      positionals(rest, []);
      const rows = await listing.load(ctx.db, limitOption(values.limit, LISTING_LIMIT, 10_000));
      if (rows.length === 0) {
        ctx.print(listing.none);
        return 0;
      }
      ctx.print(listing.header.join('  '));
      for (const row of rows) {
        ctx.print(listing.cells(row).join('  '));
        if (listing.detail) ctx.print(listing.detail(row));
      }
      if (listing.footer !== undefined) ctx.print(listing.footer);
      return 0;
    },
  };
}

const memesListCommand = listingCommand({
  name: 'memes:list',
  summary: 'The newest memes, hidden ones too, with votes and uploader.',
  load: listAllMemes,
  none: 'No memes yet.',
  header: [
    'id'.padStart(6),
    'state ',
    '  up',
    'down',
    'category'.padEnd(17),
    'created (UTC)   ',
    'uploader'.padEnd(16),
    'title',
  ],
  cells: (row) => [
    String(row.id).padStart(6),
    row.hidden ? 'hidden' : 'shown ',
    String(row.upvotes).padStart(4),
    String(row.downvotes).padStart(4),
    row.category.padEnd(17),
    utc(row.created_at).slice(0, 16),
    (row.username ?? '(deleted)').padEnd(16),
    // Titles are user input: one line each, whatever they contain.
    JSON.stringify(row.title),
  ],
});

const memesQueueCommand = listingCommand({
  name: 'memes:queue',
  summary: `Reported memes awaiting a decision, most reported first, with the reasons (${REPORTS_TO_HIDE} distinct reporters hide a meme until then).`,
  // The console's queue (memes/report-queue.ts): one reading of the reports for both faces.
  load: (db, limit) => reportQueue(db, { status: 'open', sort: 'most', limit }),
  none: 'No reports waiting.',
  header: ['id'.padStart(6), 'reports', 'state ', 'first report (UTC)', 'title / reasons'],
  cells: (entry) => [
    String(entry.meme.id).padStart(6),
    String(entry.reports).padStart(7),
    entry.meme.hidden ? 'hidden' : 'shown ',
    utc(entry.firstReportAt).slice(0, 16).padEnd(18),
    JSON.stringify(entry.meme.title),
  ],
  detail: (entry) => {
    const reasons = Object.entries(entry.reasons)
      .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
      .map(([reason, n]) => `${REPORT_REASON_LABELS[reason as ReportReason] ?? reason} x${n}`);
    return `${' '.repeat(8)}reasons: ${reasons.join(', ')}`;
  },
  footer: 'Settle each with memes:dismiss, memes:hide or memes:delete <id>.',
});

const DECISIONS: Record<Decision, { summary: string; done: string }> = {
  dismiss: {
    summary: "Settles a meme's reports as unfounded and shows it again; the decision is recorded.",
    done: 'shown, its reports dismissed',
  },
  hide: {
    summary:
      'Takes a meme out of the gallery (votes and images kept) and settles its reports; the decision is recorded.',
    done: 'hidden',
  },
  unhide: {
    summary: 'Puts a hidden meme back into the gallery; the decision is recorded.',
    done: 'shown',
  },
  delete: {
    summary:
      'Deletes a meme, its votes, reports and images (unless another meme shares them); the decision is recorded.',
    done: 'deleted',
  },
};

function decisionCommand(decision: Decision): MemeCliCommand {
  const name = `memes:${decision}`;
  const usage = `${name} <id> [--reason "text for the operator log"]`;
  return {
    usage,
    summary: DECISIONS[decision].summary,
    async run(ctx, args) {
      const { values, positionals: rest } = parseOptions(args, ['reason']);
      const id = memeId(rest, usage);
      const reason = values.reason?.trim() || 'from the CLI, no reason given';
      const result = await decide(ctx.db, id, decision, ctx.clock.now(), {
        operator: cliOperator(),
        reason,
      });
      if (!result) {
        ctx.print(`No meme #${id}.`);
        return 1;
      }
      for (const key of result.orphanKeys) await ctx.objectStore.deleteObject(key);
      const settled =
        result.settledReports > 0 ? `; ${result.settledReports} report(s) settled` : '';
      if (decision !== 'delete') {
        ctx.print(
          `Meme #${id} is now ${DECISIONS[decision].done}${settled} (decision #${result.decisionId}).`,
        );
        return 0;
      }
      const kept = 2 - result.orphanKeys.length;
      ctx.print(
        `Deleted meme #${id} and ${result.orphanKeys.length} image file(s)` +
          (kept > 0 ? `; ${kept} kept because other uploads share them` : '') +
          `${settled} (decision #${result.decisionId}).`,
      );
      return 0;
    },
  };
}

const memesDismissCommand = decisionCommand('dismiss');
const memesHideCommand = decisionCommand('hide');
const memesUnhideCommand = decisionCommand('unhide');
const memesDeleteCommand = decisionCommand('delete');

/** The gallery's operator commands, by name, for the CLI's registry. */
export const memeCliCommands: Record<string, MemeCliCommand> = {
  'memes:list': memesListCommand,
  'memes:queue': memesQueueCommand,
  'memes:dismiss': memesDismissCommand,
  'memes:hide': memesHideCommand,
  'memes:unhide': memesUnhideCommand,
  'memes:delete': memesDeleteCommand,
};
