import { randomBytes } from 'node:crypto';
import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../db/database.ts';
import { deleteMemesOfUser, isObjectReferenced } from '../memes/repository.ts';
import { hashPassword } from '../security/password.ts';
import { memberCommands } from '../cli/command.ts';

/** Ends every session of the member; gives how many there were. */
async function endSessions(
  db: Kysely<Database> | Transaction<Database>,
  userId: number,
): Promise<number> {
  const ended = await db.deleteFrom('sessions').where('user_id', '=', userId).executeTakeFirst();
  return Number(ended.numDeletedRows);
}

export const accountAdminCommands = memberCommands({
  'users:sessions:revoke': {
    summary: 'Signs a member out everywhere: ends every session they have.',
    async run(ctx, user) {
      const ended = await endSessions(ctx.db, user.id);
      ctx.print(`Ended ${ended} session(s) of ${user.username}.`);
      return 0;
    },
  },

  'users:password:reset': {
    summary:
      'Gives a member a new random password (printed once, for you to pass on) and ends every session they have.',
    async run(ctx, user) {
      const password = randomBytes(12).toString('base64url');
      const passwordHash = await hashPassword(password);
      const ended = await ctx.db.transaction().execute(async (trx) => {
        await trx
          .updateTable('users')
          .set({ password_hash: passwordHash })
          .where('id', '=', user.id)
          .execute();
        return endSessions(trx, user.id);
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
