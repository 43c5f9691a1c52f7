import { clusterName } from '#shared/solana-cluster.ts';
import { positionals, siteOrigin, type CliCommand, type CliContext } from '../cli-command.ts';
import { clearRehearsal, makeRehearsalWeek } from './demo-week.ts';

type Needs = Pick<CliContext, 'config' | 'db' | 'clock' | 'print'>;

/** Where the demo wallets' messages say they are from: the site's origin as members see it. */
function siteOf(config: Needs['config']) {
  const origin = siteOrigin(config);
  return { domain: new URL(origin).host, uri: origin };
}

/** The rehearsal's two faces on the CLI (README, "Rehearse a week in ten minutes"). */
export const rehearsalCliCommands: Record<string, CliCommand<Needs>> = {
  'rehearsal:week': {
    usage: 'rehearsal:week',
    summary:
      "Makes last week's board for a rehearsal: demo members with wallets proven by signature and replayable autopilot runs; refused on mainnet-beta (SOLANA_CLUSTER).",
    async run(ctx, args) {
      positionals(args, []);
      const cluster = ctx.config.solana.cluster;
      const { week, members } = await makeRehearsalWeek({
        db: ctx.db,
        clock: ctx.clock,
        cluster,
        site: siteOf(ctx.config),
      });
      ctx.print(
        `Rehearsal of ${week.id} on ${clusterName(cluster)}: ${members.length} demo members, each with a wallet proven by signature and a replayed run on the week's board.`,
      );
      for (const m of members) {
        ctx.print(
          `  ${m.username.padEnd(10)} score ${String(m.score).padStart(4)}  ${String(m.gameTime).padStart(3)} s  wallet ${m.wallet}  run ${m.runId}`,
        );
      }
      ctx.print(
        'Next: an admin opens /admin, Prize week: watch the top run, approve it, pay it. rehearsal:clear removes the demo members and their runs.',
      );
      return 0;
    },
  },
  'rehearsal:clear': {
    usage: 'rehearsal:clear',
    summary:
      "Removes the rehearsal's demo members with their runs and board entries (the append-only prize and wallet records keep their rows).",
    async run(ctx, args) {
      positionals(args, []);
      const cleared = await clearRehearsal({ db: ctx.db, clock: ctx.clock });
      if (cleared.members === 0) {
        ctx.print('No rehearsal here: no demo members.');
        return 0;
      }
      ctx.print(
        `Removed ${cleared.members} demo members, ${cleared.runs} runs and ${cleared.entries} board entries.`,
      );
      if (cleared.withdrawn.length > 0) {
        ctx.print(`Withdrew the unpaid approval of ${cleared.withdrawn.join(', ')}.`);
      }
      ctx.print(
        "The prize and wallet records keep their rows (append-only); a rehearsal's payment names its cluster, which a mainnet site never shows.",
      );
      return 0;
    },
  },
};
