import type { FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import type { SuspensionLength } from '#shared/api/console/members.ts';
import type { Database } from '../db/database.ts';
import type { AppDeps } from '../deps.ts';
import { HttpError } from '../http-error.ts';
import { recordDecision } from '../db/operator-log.ts';
import { endSessionsOf } from '../security/sessions.ts';
import { refuseUnlessOutranksMember, type RankedOperator } from '../accounts/rank.ts';
import { cleanUpMember, restoreCleanUp, type Cleaned } from '../memes/cleanup.ts';
import { recordLiveEvent } from '../live/record.ts';

const DAY_MS = 24 * 60 * 60 * 1000;
const LENGTH_MS: Record<SuspensionLength, number | null> = {
  day: DAY_MS,
  week: 7 * DAY_MS,
  month: 30 * DAY_MS,
  forever: null,
};

export function isActive(
  s: { ends_at: number | null; lifted_at: number | null },
  now: number,
): boolean {
  return s.lifted_at === null && (s.ends_at === null || s.ends_at > now);
}

export async function activeSuspension(db: Kysely<Database>, userId: number, now: number) {
  const rows = await db
    .selectFrom('suspensions')
    .selectAll()
    .where('user_id', '=', userId)
    .where('lifted_at', 'is', null)
    .orderBy('id', 'desc')
    .execute();
  return rows.find((s) => isActive(s, now));
}

export async function suspend(
  db: Kysely<Database>,
  operator: RankedOperator,
  member: { id: number; username: string },
  length: SuspensionLength,
  reason: string,
  now: number,
  /** Also hide every meme they have up and take off their votes and open reports (027). */
  { cleanUp = false }: { cleanUp?: boolean } = {},
) {
  const result = await db.transaction().execute(async (trx) => {
    await refuseUnlessOutranksMember(trx, operator, member.id);
    const current = (
      await trx.selectFrom('suspensions').selectAll().where('user_id', '=', member.id).execute()
    ).find((s) => isActive(s, now));
    if (current) {
      throw new HttpError(409, `${member.username} is already suspended.`, 'SUSPENDED');
    }
    const ms = LENGTH_MS[length];
    const row = await trx
      .insertInto('suspensions')
      .values({
        user_id: member.id,
        reason,
        starts_at: now,
        ends_at: ms === null ? null : now + ms,
        operator_id: operator.id,
        lifted_at: null,
        lifted_by: null,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    const cleaned = cleanUp ? await cleanUpMember(trx, row.id, member.id, now) : null;
    await recordDecision(
      trx,
      operator,
      {
        kind: 'suspend',
        targetType: 'member',
        targetId: member.id,
        targetLabel: member.username,
        reason,
        details: {
          length,
          suspension: row.id,
          endsAt: row.ends_at,
          ...(cleaned && {
            cleanUp: { memes: cleaned.memes, votes: cleaned.votes, reports: cleaned.reports },
          }),
        },
      },
      now,
    );
    return { ...row, cleaned };
  });
  for (const id of result.cleaned?.memeIds ?? []) {
    recordLiveEvent(db, { type: 'meme', data: { id, change: 'hidden' } });
  }
  return result;
}

export async function lift(
  db: Kysely<Database>,
  operator: RankedOperator,
  member: { id: number; username: string },
  reason: string,
  now: number,
  /** Also put back what the suspensions' clean-up took (027). */
  { restore = false }: { restore?: boolean } = {},
): Promise<{ lifted: number; restored: Cleaned | null }> {
  const result = await db.transaction().execute(async (trx) => {
    await refuseUnlessOutranksMember(trx, operator, member.id);
    const active = (
      await trx.selectFrom('suspensions').selectAll().where('user_id', '=', member.id).execute()
    ).filter((s) => isActive(s, now));
    for (const s of active) {
      await trx
        .updateTable('suspensions')
        .set({ lifted_at: now, lifted_by: operator.id })
        .where('id', '=', s.id)
        .execute();
    }
    const restored = restore
      ? await restoreCleanUp(
          trx,
          active.map((s) => s.id),
          member.id,
          now,
        )
      : null;
    await recordDecision(
      trx,
      operator,
      {
        kind: 'lift',
        targetType: 'member',
        targetId: member.id,
        targetLabel: member.username,
        reason,
        details: {
          suspensions: active.map((s) => s.id),
          ...(restored && {
            restored: { memes: restored.memes, votes: restored.votes, reports: restored.reports },
          }),
        },
      },
      now,
    );
    return { lifted: active.length, restored };
  });
  for (const id of result.restored?.memeIds ?? []) {
    recordLiveEvent(db, { type: 'meme', data: { id, change: 'unhidden' } });
  }
  return {
    lifted: result.lifted,
    restored: result.restored && {
      memes: result.restored.memes,
      votes: result.restored.votes,
      reports: result.restored.reports,
    },
  };
}

/**
 * Signs a member out everywhere, logged and rank-checked: the console's "End sessions" and the
 * CLI's users:sessions:revoke (each node drops the sessions within the session cache's 2 s).
 */
export async function endSessions(
  deps: Pick<AppDeps, 'db'>,
  operator: RankedOperator,
  member: { id: number; username: string },
  reason: string,
  now: number,
): Promise<number> {
  return deps.db.transaction().execute(async (trx) => {
    await refuseUnlessOutranksMember(trx, operator, member.id);
    const count = (await endSessionsOf(trx, member.id, null)).length;
    await recordDecision(
      trx,
      operator,
      {
        kind: 'end-sessions',
        targetType: 'member',
        targetId: member.id,
        targetLabel: member.username,
        reason,
        details: { ended: count },
      },
      now,
    );
    return count;
  });
}

/**
 * The check of a write whose endpoint `refuses: { suspended: true }` (src/shared/api: uploading,
 * posting, voting, reporting, playing a ranked run, scoring, buying, linking a wallet, where a
 * prize would go), put on the route at registration by the session scope (app.ts): a suspended
 * member gets 403 `SUSPENDED` with the reason and the end time; reading, and every other write
 * (signing out, an appeal), still works. Read from the database on each such write, so a
 * suspension holds on every node at once.
 */
export async function refuseSuspended(request: FastifyRequest): Promise<void> {
  if (!request.user) return;
  const { db, clock } = request.server.deps;
  const suspension = await activeSuspension(db, request.user.id, clock.now());
  if (!suspension) return;
  const until =
    suspension.ends_at === null
      ? 'for good'
      : `until ${new Date(suspension.ends_at).toISOString().slice(0, 16).replace('T', ' ')} UTC`;
  throw new HttpError(403, `Your account is suspended ${until}: ${suspension.reason}`, 'SUSPENDED');
}
