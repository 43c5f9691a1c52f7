import { ed25519 } from '@noble/curves/ed25519.js';
import { base58 } from '@scure/base';
import type { Kysely } from 'kysely';
import { autopilotInputs } from '#shared/game/autopilot.ts';
import { signInMessageText } from '#shared/siws.ts';
import type { SolanaCluster } from '#shared/solana-cluster.ts';
import { DAY_MS, HOUR_MS, isoWeek, type IsoWeek } from '#shared/time.ts';
import { deleteAccountRow } from '../accounts/delete-account.ts';
import { insertUser, isLookAlikeOfMember } from '../accounts/repository.ts';
import type { Clock } from '../clock.ts';
import type { Database } from '../db/database.ts';
import { cliOperator, recordDecision, type Operator } from '../db/operator-log.ts';
import { deleteRunsOfMember, recordReplayedRun } from '../game/replayed-runs.ts';
import { openApproval, weekEvents } from '../prize/repository.ts';
import { closedWeek, currentApproval, paidStep, withdrawApproval } from '../prize/review.ts';
import { hashPassword } from '../security/password.ts';
import { createSqlRateLimiter } from '../security/rate-limit.ts';
import { issueChallenge, linkWallet, type SiteIdentity } from '../wallet/service.ts';
import { randomToken } from '../security/random-token.ts';

/**
 * A closed prize week on demand, for rehearsing the payout before real money moves (issue 42,
 * docs/decisions/030): a few demo members, each with a wallet proven by signature through the
 * wallet's own rules and a run of the game's autopilot replayed and put on last week's board as
 * the game stores one. Only off mainnet; every demo member is listed in rehearsal_members, and
 * clearing removes them with their runs and entries.
 */

/**
 * The demo players: seeds of the autopilot corpus (scripts/game-corpus.ts) and run lengths that
 * rank them in this order; the longest lasts about 20 s, 5 s to watch at the replay's top speed.
 */
export const DEMO_PLAYERS = [
  { username: 'Demo_Ada', seed: 11, targetSteps: 1_200 },
  { username: 'Demo_Bo', seed: 22, targetSteps: 900 },
  { username: 'Demo_Cy', seed: 33, targetSteps: 600 },
] as const;

export interface RehearsalContext {
  db: Kysely<Database>;
  clock: Clock;
  cluster: SolanaCluster;
  /** Where the demo wallets' sign-in messages say they are from (the site's origin). */
  site: SiteIdentity;
  operator?: Operator;
}

export interface DemoMember {
  username: string;
  wallet: string;
  runId: string;
  score: number;
  gameTime: number;
}

/** A rehearsal refused, with the one line that says why. */
class RehearsalRefused extends Error {}

async function demoMemberIds(db: Kysely<Database>): Promise<number[]> {
  const rows = await db.selectFrom('rehearsal_members').select('user_id').execute();
  return rows.map((r) => r.user_id);
}

/** Makes last week's board for a rehearsal; refused on mainnet and over a week already decided. */
export async function makeRehearsalWeek(
  ctx: RehearsalContext,
): Promise<{ week: IsoWeek; members: DemoMember[] }> {
  if (ctx.cluster === 'mainnet-beta') {
    throw new RehearsalRefused(
      'rehearsal:week is refused on mainnet-beta (SOLANA_CLUSTER): a demo member could be paid real SOL; set SOLANA_CLUSTER=localnet (or devnet, testnet) to rehearse.',
    );
  }
  const now = ctx.clock.now();
  const week = closedWeek(now);
  const present = await demoMemberIds(ctx.db);
  if (present.length > 0) {
    throw new RehearsalRefused(
      `A rehearsal is already here (${present.length} demo members); rehearsal:clear removes it.`,
    );
  }
  const events = await weekEvents(ctx.db, week.id);
  if (paidStep(events) || currentApproval(events)) {
    throw new RehearsalRefused(
      `${week.id} is already ${paidStep(events) ? 'paid' : 'approved'} in this database's prize record, which is append-only; rehearse on a fresh DATA_DIR${paidStep(events) ? '' : ` (or prize:withdraw --week ${week.id} first)`}.`,
    );
  }
  for (const { username } of DEMO_PLAYERS) {
    if (await isLookAlikeOfMember(ctx.db, username)) {
      throw new RehearsalRefused(
        `A member named like ${username} exists already: rehearse on a fresh DATA_DIR.`,
      );
    }
  }

  // The wallet's rules exactly as a member meets them, its limits kept in this database.
  const deps = {
    db: ctx.db,
    clock: ctx.clock,
    rateLimiter: createSqlRateLimiter(ctx.db, ctx.clock),
  };
  const members: DemoMember[] = [];
  for (const [i, player] of DEMO_PLAYERS.entries()) {
    const password = randomToken(18);
    const user = await insertUser(ctx.db, {
      username: player.username,
      passwordHash: await hashPassword(password),
      now,
    });
    if (!user)
      throw new RehearsalRefused(
        `The name ${player.username} is taken: rehearse on a fresh DATA_DIR.`,
      );
    await ctx.db
      .insertInto('rehearsal_members')
      .values({ user_id: user.id, created_at: now })
      .execute();

    const key = ed25519.keygen();
    const address = base58.encode(key.publicKey);
    const challenge = await issueChallenge(deps, user, ctx.site, 'cli');
    const message = new TextEncoder().encode(signInMessageText({ ...challenge, address }));
    await linkWallet(
      deps,
      user,
      {
        password,
        address,
        signedMessage: Buffer.from(message).toString('base64'),
        signature: Buffer.from(ed25519.sign(message, key.secretKey)).toString('base64'),
      },
      ctx.site,
      'cli',
      openApproval,
    );

    const run = await recordReplayedRun(ctx.db, {
      userId: user.id,
      playerName: user.username,
      seed: player.seed,
      inputs: autopilotInputs(player.seed, player.targetSteps),
      finishedAt: week.start + (i + 1) * DAY_MS + 12 * HOUR_MS,
    });
    members.push({ username: user.username, wallet: address, ...run });
  }
  await recordDecision(
    ctx.db,
    ctx.operator ?? cliOperator(),
    {
      kind: 'rehearsal-week',
      targetType: 'prize-week',
      targetId: week.id,
      targetLabel: `${week.id}: rehearsal on ${ctx.cluster}`,
      reason: `made a rehearsal board of ${members.length} demo members`,
      details: { cluster: ctx.cluster, members: members.map((m) => m.username) },
    },
    now,
  );
  return { week, members };
}

/**
 * Removes every demo member with their runs and board entries (their wallet goes with the
 * account); a standing approval of a demo run, not paid, is withdrawn first. The prize and wallet
 * records keep their rows: they are append-only, and a paid step names the cluster it was on.
 */
export async function clearRehearsal(
  ctx: Omit<RehearsalContext, 'cluster' | 'site'>,
): Promise<{ members: number; runs: number; entries: number; withdrawn: string[] }> {
  const ids = await demoMemberIds(ctx.db);
  const now = ctx.clock.now();
  const operator = ctx.operator ?? cliOperator();
  const withdrawn: string[] = [];
  if (ids.length > 0) {
    const weeks = await ctx.db
      .selectFrom('prize_events')
      .select('week_id')
      .distinct()
      .where('step', '=', 'approved')
      .where('user_id', 'in', ids)
      .execute();
    for (const { week_id } of weeks) {
      const events = await weekEvents(ctx.db, week_id);
      const approval = currentApproval(events);
      if (!approval || paidStep(events) || !ids.includes(approval.user_id ?? -1)) continue;
      await withdrawApproval(ctx.db, operator, isoWeek(week_id), 'rehearsal cleared', now);
      withdrawn.push(week_id);
    }
  }
  const removed = await ctx.db.transaction().execute(async (trx) => {
    let runs = 0;
    let entries = 0;
    for (const id of ids) {
      const counts = await deleteRunsOfMember(trx, id);
      runs += counts.runs;
      entries += counts.entries;
      await deleteAccountRow(trx, id);
    }
    if (ids.length > 0) {
      await recordDecision(
        trx,
        operator,
        {
          kind: 'rehearsal-clear',
          targetType: 'rehearsal',
          targetId: 'demo members',
          targetLabel: `${ids.length} demo members`,
          reason: `removed the rehearsal: ${ids.length} demo members, ${runs} runs`,
          details: { runs, entries, withdrawn },
        },
        now,
      );
    }
    return { runs, entries };
  });
  return { members: ids.length, withdrawn, ...removed };
}
