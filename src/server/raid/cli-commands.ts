import fs from 'node:fs';
import type { RaidThresholds } from '#shared/raid.ts';
import {
  parseOptions,
  positionals,
  reasonArg,
  requiredOption,
  UsageError,
  utc,
  type CliCommand,
} from '../cli-command.ts';
import { cliOperator } from '../db/operator-log.ts';
import { exportBlocklist, importBlocklist } from '../memes/blocklist.ts';
import { readRaid } from './repository.ts';
import { hourlyActivity, setThresholds, switchRaid } from './service.ts';

function count(raw: string | undefined, name: string, fallback: number): number {
  if (raw === undefined) return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1 || n > 1_000_000) {
    throw new UsageError(`--${name} must be a whole number from 1 to 1000000`);
  }
  return n;
}

/** raid:on and raid:off: one switch with its reason, logged, and what it did in a line. */
function switchCommand(
  active: boolean,
  summary: string,
  said: (done: Awaited<ReturnType<typeof switchRaid>>) => string,
): CliCommand {
  return {
    usage: `raid:${active ? 'on' : 'off'} <reason>`,
    summary,
    async run(ctx, args) {
      const [raw] = positionals(args, ['reason']);
      const done = await switchRaid(
        ctx,
        cliOperator(),
        { active, reason: reasonArg(raw) },
        ctx.clock.now(),
      );
      ctx.print(said(done));
      return 0;
    },
  };
}

/**
 * Raid mode and the blocklist from the shell (docs/decisions/027-raid-day.md): the same functions
 * as the console's raid page, logged as `cli:<user>`.
 */
export const raidCliCommands: Record<string, CliCommand> = {
  'raid:status': {
    usage: 'raid:status',
    summary: "Whether raid mode is on, its thresholds and the last hour's counts.",
    async run(ctx, args) {
      positionals(args, []);
      const now = ctx.clock.now();
      const [raid, hour] = await Promise.all([readRaid(ctx.db), hourlyActivity(ctx.db, now)]);
      const t = raid.thresholds;
      ctx.print(
        raid.active
          ? `Raid mode is ON since ${utc(raid.since!)} (${raid.automatic ? 'entered by the thresholds' : 'entered by hand'}).`
          : 'Raid mode is off.',
      );
      ctx.print(
        `Last hour: ${hour.signups}/${t.signupsPerHour} sign-ups, ${hour.newPosts}/${t.newPostsPerHour} memes from new accounts, ${hour.reports}/${t.reportsPerHour} reports; ends after ${t.quietMinutes} quiet minutes.`,
      );
      return 0;
    },
  },
  'raid:on': switchCommand(
    true,
    'Turns raid mode on: new accounts cannot post, vote or report, sign-ups need a proof of work, visitor votes pause. Logged.',
    (done) =>
      done
        ? `Raid mode is ON; ${done.held.length} meme(s) from new accounts in the last hour are held for review.`
        : 'Raid mode was already on.',
  ),
  'raid:off': switchCommand(false, 'Ends raid mode. Logged.', (done) =>
    done ? 'Raid mode is off.' : 'Raid mode was already off.',
  ),
  'raid:thresholds': {
    usage:
      'raid:thresholds --reason <text> [--signups N] [--new-posts N] [--reports N] [--quiet-minutes N]',
    summary:
      'Sets the counts an hour that turn raid mode on by themselves, and the quiet minutes that end it. Logged.',
    async run(ctx, args) {
      const { values, positionals: rest } = parseOptions(args, [
        'reason',
        'signups',
        'new-posts',
        'reports',
        'quiet-minutes',
      ]);
      if (rest.length > 0) throw new UsageError(`Unexpected argument "${rest[0]}"`);
      const reason = reasonArg(requiredOption(values, 'reason'));
      const { thresholds: t } = await readRaid(ctx.db);
      const next: RaidThresholds = {
        signupsPerHour: count(values.signups, 'signups', t.signupsPerHour),
        newPostsPerHour: count(values['new-posts'], 'new-posts', t.newPostsPerHour),
        reportsPerHour: count(values.reports, 'reports', t.reportsPerHour),
        quietMinutes: count(values['quiet-minutes'], 'quiet-minutes', t.quietMinutes),
      };
      await setThresholds(ctx, cliOperator(), next, reason, ctx.clock.now());
      ctx.print(
        `Raid mode starts at ${next.signupsPerHour} sign-ups, ${next.newPostsPerHour} new-account memes or ${next.reportsPerHour} reports an hour, and ends after ${next.quietMinutes} quiet minutes.`,
      );
      return 0;
    },
  },
  'blocklist:export': {
    usage: 'blocklist:export',
    summary:
      'Prints the perceptual-hash blocklist (deleted pictures and imported lists) in its text format (docs/blocklist-format.md).',
    async run(ctx, args) {
      positionals(args, []);
      const { text } = await exportBlocklist(ctx.db);
      for (const line of text.trimEnd().split('\n')) ctx.print(line);
      return 0;
    },
  },
  'blocklist:import': {
    usage: 'blocklist:import <file> --source <community> --reason <text>',
    summary:
      "Adds another community's blocklist (the text format) under its name: its pictures are refused at upload. Logged.",
    async run(ctx, args) {
      const { values, positionals: rest } = parseOptions(args, ['source', 'reason']);
      const [file] = rest;
      if (file === undefined || rest.length > 1) throw new UsageError('Give one <file>');
      const source = requiredOption(values, 'source');
      if (!/^[A-Za-z0-9_.-]{1,40}$/.test(source)) {
        throw new UsageError('--source is 1-40 letters, digits, _ . or -');
      }
      const text = fs.readFileSync(file, 'utf8');
      const { added, known } = await importBlocklist(
        ctx.db,
        cliOperator(),
        { source, text, reason: reasonArg(requiredOption(values, 'reason')) },
        ctx.clock.now(),
      );
      ctx.print(`Added ${added} picture(s) from ${source}; ${known} were on the list already.`);
      return 0;
    },
  },
};
