import type { onRequestHookHandler } from 'fastify';
import { appealPaths, memePaths } from '#shared/api/paths.ts';
import { HttpError } from '../http-error.ts';
import { memberStanding } from '../memes/standing.ts';
import type { RaidState } from './service.ts';

declare module 'fastify' {
  interface FastifyInstance {
    raid: RaidState;
  }
}

/** What raid mode stops for a new account (standing `new`, src/shared/standing.ts). */
const NEW_ACCOUNT_WRITES = new Set<string>([
  memePaths.uploadTarget,
  memePaths.memeImages,
  memePaths.create,
  memePaths.vote,
  memePaths.report,
  appealPaths.appeal,
]);

const NEW_ACCOUNT_REFUSAL =
  'The site is in raid mode: accounts of standing New cannot post, vote, report or appeal until it ends. Your account is not affected otherwise.';
const VISITOR_VOTE_REFUSAL =
  'The site is in raid mode: visitor votes are paused. Log in to vote, or try again later.';

/**
 * The session scope's raid check for a write route above, or none for another route (app.ts puts
 * it on the route at registration; docs/decisions/027-raid-day.md): while raid mode is on, a new
 * account's gallery writes and appeals, and a visitor's vote, are refused (403 RAID_MODE) before
 * their body is read. The switch is read through the node's read cache (fresh within 2 s on
 * every node); standing only while raid mode is on.
 */
export function raidCheckFor(url: string): onRequestHookHandler | undefined {
  if (!NEW_ACCOUNT_WRITES.has(url)) return undefined;
  const refusesVisitors = url === memePaths.vote;
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
