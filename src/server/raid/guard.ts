import type { onRequestHookHandler } from 'fastify';
import type { WriteRefusals } from '#shared/api/endpoint.ts';
import { HttpError } from '../http-error.ts';
import { memberStanding } from '../memes/standing.ts';
import type { RaidState } from './service.ts';

declare module 'fastify' {
  interface FastifyInstance {
    raid: RaidState;
  }
}

const NEW_ACCOUNT_REFUSAL =
  'The site is in raid mode: accounts of standing New cannot post, vote, report or appeal until it ends. Your account is not affected otherwise.';
const VISITOR_VOTE_REFUSAL =
  'The site is in raid mode: visitor votes are paused. Log in to vote, or try again later.';

/**
 * The raid check of a write whose endpoint `refuses: { raid }` (src/shared/api: a new account's
 * gallery writes and appeal, and the vote of a visitor too), put on the route at registration by
 * the session scope (app.ts; docs/decisions/027-raid-day.md): while raid mode is on they are
 * refused (403 RAID_MODE) before their body is read. The switch is read through the node's read
 * cache (fresh within 2 s on every node); standing only while raid mode is on.
 */
export function raidCheck(refused: NonNullable<WriteRefusals['raid']>): onRequestHookHandler {
  const refusesVisitors = refused === 'new accounts and visitors';
  return async (request) => {
    const { deps, raid } = request.server;
    if (!(await raid.get()).active) return;
    if (!request.user) {
      if (refusesVisitors) throw new HttpError(403, VISITOR_VOTE_REFUSAL, 'RAID_MODE');
      return;
    }
    const { allowance } = await memberStanding(deps.db, request.user.id, deps.clock.now());
    if (!allowance.actsDuringRaid) throw new HttpError(403, NEW_ACCOUNT_REFUSAL, 'RAID_MODE');
  };
}
