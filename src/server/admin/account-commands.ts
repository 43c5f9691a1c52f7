import { randomBytes } from 'node:crypto';
import { deleteMemesOfUser, isObjectReferenced } from '../memes/repository.ts';
import { hashPassword } from '../security/password.ts';
import { findMember, positionals, usernameArg, type AdminCommand } from './command.ts';

export const usersSessionsRevokeCommand: AdminCommand = {
  usage: 'users:sessions:revoke <username>',
  summary: 'Signs a member out everywhere: ends every session they have.',
  async run(ctx, args) {
    const [raw] = positionals(args, ['username']);
    const user = await findMember(ctx, usernameArg(raw!));
    if (!user) return 1;
    const ended = await ctx.db.deleteFrom('sessions').where('user_id', '=', user.id).executeTakeFirst();
    ctx.print(`Ended ${Number(ended.numDeletedRows)} session(s) of ${user.username}.`);
    return 0;
  },
};

export const usersPasswordResetCommand: AdminCommand = {
  usage: 'users:password:reset <username>',
  summary:
    'Gives a member a new random password (printed once, for you to pass on) and ends every session they have.',
  async run(ctx, args) {
    const [raw] = positionals(args, ['username']);
    const user = await findMember(ctx, usernameArg(raw!));
    if (!user) return 1;
    const password = randomBytes(12).toString('base64url');
    const passwordHash = await hashPassword(password);
    const ended = await ctx.db.transaction().execute(async (trx) => {
      await trx.updateTable('users').set({ password_hash: passwordHash }).where('id', '=', user.id).execute();
      return trx.deleteFrom('sessions').where('user_id', '=', user.id).executeTakeFirst();
    });
    ctx.print(`New password for ${user.username}: ${password}`);
    ctx.print(`Ended ${Number(ended.numDeletedRows)} session(s); the old password no longer works.`);
    return 0;
  },
};

/**
 * Deletes an account and what is the member's alone, in one transaction: sessions, balance with
 * its ledger rows, characters, uploads, memes (with the votes on them) and runs with their
 * statistics and leaderboard entries. Every other member's balance and ledger are untouched, so each balance
 * still equals its ledger's sum, and no credited run is left without its ledger row. Votes the
 * member cast on other memes stay counted; prize records (giveaway_winners) stay, as paid.
 */
export const usersDeleteCommand: AdminCommand = {
  usage: 'users:delete <username>',
  summary:
    'Deletes a member with their sessions, coins and ledger, characters, memes and images, runs and leaderboard entries.',
  async run(ctx, args) {
    const [raw] = positionals(args, ['username']);
    const user = await findMember(ctx, usernameArg(raw!));
    if (!user) return 1;
    const { keys, orphans, scores, runs } = await ctx.db.transaction().execute(async (trx) => {
      const keys = await deleteMemesOfUser(trx, user.id);
      const runIds = trx.selectFrom('game_runs').select('id').where('user_id', '=', user.id);
      const scores = await trx
        .deleteFrom('game_scores')
        .where((eb) => eb.or([eb('user_id', '=', user.id), eb('run_id', 'in', runIds)]))
        .executeTakeFirst();
      await trx.deleteFrom('game_run_statistics').where('run_id', 'in', runIds).execute();
      const runs = await trx.deleteFrom('game_runs').where('user_id', '=', user.id).executeTakeFirst();
      // Sessions, ledger rows, characters and upload rows go with the user (ON DELETE CASCADE).
      await trx.deleteFrom('users').where('id', '=', user.id).execute();
      const orphans: string[] = [];
      for (const key of keys) if (!(await isObjectReferenced(trx, key))) orphans.push(key);
      return { keys, orphans, scores: Number(scores.numDeletedRows), runs: Number(runs.numDeletedRows) };
    });
    for (const key of orphans) await ctx.objectStore.deleteObject(key);
    ctx.print(
      `Deleted ${user.username} (#${user.id}): ${user.coins} coins with their ledger, ${runs} run(s), ${scores} leaderboard entr${scores === 1 ? 'y' : 'ies'}, ${keys.length} image file(s) named by their memes and uploads (${orphans.length} removed from the store).`,
    );
    return 0;
  },
};

export const accountAdminCommands: Record<string, AdminCommand> = {
  'users:sessions:revoke': usersSessionsRevokeCommand,
  'users:password:reset': usersPasswordResetCommand,
  'users:delete': usersDeleteCommand,
};
