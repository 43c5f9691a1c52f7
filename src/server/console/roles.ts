import type { Kysely } from 'kysely';
import type { Role } from '#shared/api/admin.ts';
import type { Database } from '../db/database.ts';
import { recordDecision, type Operator } from '../db/operator-log.ts';

/**
 * Gives a member a role (or takes it back with `member`), logged. The console reads the role on
 * every request, so the change holds from the member's next console request. Gives the role
 * the member had.
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
    await recordDecision(
      trx,
      operator,
      {
        kind: 'role',
        targetType: 'member',
        targetId: member.id,
        targetLabel: member.username,
        reason: `${before.role} -> ${role}`,
        details: { from: before.role, to: role },
      },
      now,
    );
    return before.role;
  });
}

/**
 * Removes every passkey of a member (a lost device) and ends the passkey sign-ins of their
 * sessions, logged. Gives how many passkeys there were.
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
    await trx
      .updateTable('sessions')
      .set({ passkey_at: null, passkey_challenge: null, passkey_challenge_expires_at: null })
      .where('user_id', '=', member.id)
      .execute();
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
        details: { removed: count },
      },
      now,
    );
    return count;
  });
}
