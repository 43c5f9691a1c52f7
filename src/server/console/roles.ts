import type { Kysely } from 'kysely';
import type { Role } from '#shared/api/console/common.ts';
import type { Database } from '../db/database.ts';
import { endSessionsOf } from '../security/sessions.ts';
import { recordDecision, type Operator } from '../db/operator-log.ts';

/**
 * Gives a member a role (or takes it back with `member`), logged. A change ends every session of
 * the member: a session opened (or stolen) as a member does not become an operator's, and they
 * sign in again with their password. The console reads the role on every request as well, so a
 * change holds at once. Gives the role the member had.
 */
export async function setRole(
  db: Kysely<Database>,
  operator: Operator,
  member: { id: number; username: string },
  role: Role,
  now: number,
): Promise<Role> {
  return db.transaction().execute(async (trx) => {
    const before = await trx
      .selectFrom('users')
      .select('role')
      .where('id', '=', member.id)
      .executeTakeFirstOrThrow();
    await trx.updateTable('users').set({ role }).where('id', '=', member.id).execute();
    const ended = before.role === role ? [] : await endSessionsOf(trx, member.id, null);
    await recordDecision(
      trx,
      operator,
      {
        kind: 'role',
        targetType: 'member',
        targetId: member.id,
        targetLabel: member.username,
        reason: `${before.role} -> ${role}`,
        details: { from: before.role, to: role, endedSessions: ended.length },
      },
      now,
    );
    return before.role;
  });
}

/**
 * Removes every passkey of a member (a lost device, or a passkey someone else added) and ends
 * every session of theirs, logged: whoever held one signs in again with the password. Gives how
 * many passkeys there were.
 */
export async function resetPasskeys(
  db: Kysely<Database>,
  operator: Operator,
  member: { id: number; username: string },
  now: number,
): Promise<number> {
  return db.transaction().execute(async (trx) => {
    const removed = await trx
      .deleteFrom('passkeys')
      .where('user_id', '=', member.id)
      .executeTakeFirst();
    const ended = await endSessionsOf(trx, member.id, null);
    const count = Number(removed.numDeletedRows);
    await recordDecision(
      trx,
      operator,
      {
        kind: 'passkeys-reset',
        targetType: 'member',
        targetId: member.id,
        targetLabel: member.username,
        reason: 'lost device',
        details: { removed: count, endedSessions: ended.length },
      },
      now,
    );
    return count;
  });
}
