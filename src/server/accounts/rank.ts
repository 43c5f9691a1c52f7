import type { OperatorRole, Role } from '#shared/api/console/common.ts';
import { HttpError } from '../http-error.ts';
import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../db/database.ts';
import type { Operator } from '../db/operator-log.ts';
import { findUserRole } from './repository.ts';

/**
 * Rank (issue 41): admin > moderator > member, and whoever runs the operator CLI above them all
 * (they hold the database itself). An operator acts on a member of lower rank only, never on
 * themselves: a moderator cannot suspend, sign out or decide on an admin or another moderator.
 * Every console route and CLI command that targets a member goes through `refuseUnlessOutranks`.
 */
const ORDER: Record<Role | 'owner', number> = { member: 0, moderator: 1, admin: 2, owner: 3 };

/** An operator as the rank rule sees them: the CLI has no id, a console operator their role. */
export type RankedOperator = Operator & { role?: OperatorRole };

function rankOf(operator: RankedOperator): Role | 'owner' {
  if (operator.id === null) return 'owner';
  // A console operator without a role read from the database is treated as the lowest rank.
  return operator.role ?? 'member';
}

/** Refuses (403 RANK_PROTECTED) unless the operator outranks the member and is not them. */
function refuseUnlessOutranks(
  operator: RankedOperator,
  target: { id: number | null; username: string; role: Role },
): void {
  if (operator.id !== null && operator.id === target.id) {
    throw new HttpError(403, 'You cannot act on your own account.', 'RANK_PROTECTED');
  }
  if (ORDER[rankOf(operator)] <= ORDER[target.role]) {
    throw new HttpError(
      403,
      `${target.username} is ${target.role === 'admin' ? 'an admin' : `a ${target.role}`}: only a higher rank may act on them.`,
      'RANK_PROTECTED',
    );
  }
}

/**
 * The rank rule against the member's role as stored now, read in the transaction that acts, so a
 * promotion that lands first is honoured. A deleted member has no rank to protect.
 */
export async function refuseUnlessOutranksMember(
  db: Kysely<Database> | Transaction<Database>,
  operator: RankedOperator,
  memberId: number,
): Promise<void> {
  const target = await findUserRole(db, memberId);
  if (target) refuseUnlessOutranks(operator, target);
}
