import { deleteMemesOfUser, isObjectReferenced } from '../memes/repository.ts';
import { rememberDeletedAccount } from '../accounts/repository.ts';
import { hashPassword } from '../security/password.ts';
import { endSessionsOf } from '../security/sessions.ts';
import { cliOperator, recordDecision } from '../db/operator-log.ts';
import { endSessions } from '../suspensions/suspensions.ts';
import { memberCommands } from '../accounts/cli-member.ts';
import { randomToken } from '../security/random-token.ts';

export const accountCliCommands = memberCommands({
  'users:sessions:revoke': {
    summary:
      'Signs a member out everywhere: ends every session they have (as the console does). Logged.',
    async run(ctx, user) {
      const ended = await endSessions(
        ctx,
        cliOperator(),
        user,
        'signed out everywhere from the CLI',
        ctx.clock.now(),
      );
      ctx.print(`Ended ${ended} session(s) of ${user.username}.`);
      return 0;
    },
  },

  'users:password:reset': {
    summary:
      'Gives a member a new random password (printed once, for you to pass on) and ends every session they have.',
    async run(ctx, user) {
      const password = randomToken(12);
      const passwordHash = await hashPassword(password);
      const ended = await ctx.db.transaction().execute(async (trx) => {
        await trx
          .updateTable('users')
          .set({ password_hash: passwordHash })
          .where('id', '=', user.id)
          .execute();
        const count = (await endSessionsOf(trx, user.id, null)).length;
        await recordDecision(
          trx,
          cliOperator(),
          {
            kind: 'password-reset',
            targetType: 'member',
            targetId: user.id,
            targetLabel: user.username,
            reason: 'new password given by the CLI',
            details: { endedSessions: count },
          },
          ctx.clock.now(),
        );
        return count;
      });
      ctx.print(`New password for ${user.username}: ${password}`);
      ctx.print(`Ended ${ended} session(s); the old password no longer works.`);
      return 0;
    },
  },

  /**
   * Deletes an account and what is the member's alone, in one transaction: sessions, balance with
   * its ledger rows, characters, uploads, memes (with the votes on them) and runs with their
   * statistics and leaderboard entries. Every other member's balance and ledger are untouched, so each balance
   * still equals its ledger's sum, and no credited run is left without its ledger row. Votes the
   * member cast on other memes stay counted; prize records (giveaway_winners) stay, as paid.
   */
  'users:delete': {
    summary:
      'Deletes a member with their sessions, coins and ledger, characters, memes and images, runs and leaderboard entries.',
    async run(ctx, user) {
      const { keys, orphans, scores, runs } = await ctx.db.transaction().execute(async (trx) => {
        const keys = await deleteMemesOfUser(trx, user.id);
        const runIds = trx.selectFrom('game_runs').select('id').where('user_id', '=', user.id);
        const scores = await trx
          .deleteFrom('game_scores')
          .where((eb) => eb.or([eb('user_id', '=', user.id), eb('run_id', 'in', runIds)]))
          .executeTakeFirst();
        await trx.deleteFrom('game_run_statistics').where('run_id', 'in', runIds).execute();
        const runs = await trx
          .deleteFrom('game_runs')
          .where('user_id', '=', user.id)
          .executeTakeFirst();
        // Sessions, ledger rows, characters and upload rows go with the user (ON DELETE CASCADE).
        await trx.deleteFrom('users').where('id', '=', user.id).execute();
        // The member's page then says the account is gone, not that it never was.
        await rememberDeletedAccount(trx, user.username, ctx.clock.now());
        const orphans: string[] = [];
        for (const key of keys) if (!(await isObjectReferenced(trx, key))) orphans.push(key);
        return {
          keys,
          orphans,
          scores: Number(scores.numDeletedRows),
          runs: Number(runs.numDeletedRows),
        };
      });
      for (const key of orphans) await ctx.objectStore.deleteObject(key);
      ctx.print(
        `Deleted ${user.username} (#${user.id}): ${user.coins} coins with their ledger, ${runs} run(s), ${scores} leaderboard entr${scores === 1 ? 'y' : 'ies'}, ${keys.length} image file(s) named by their memes and uploads (${orphans.length} removed from the store).`,
      );
      return 0;
    },
  },
});
