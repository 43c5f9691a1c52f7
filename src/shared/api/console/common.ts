import { z } from 'zod';
import { STANDING_LEVELS } from '../../standing.ts';
import { endpointGroup } from '../endpoint.ts';
import { MAX_ROW_ID } from '../text.ts';

/**
 * The web console's API paths, one area's endpoints a file beside this one
 * (docs/decisions/022-operator-console.md). Every route needs a role; all but the passkey sign-in
 * steps also need a passkey sign-in made in this session within PASSKEY_STEP_UP_MS
 * (`PASSKEY_REQUIRED` otherwise).
 */
export const consolePaths = {
  me: '/api/admin/me',
  registrationOptions: '/api/admin/passkeys/registration-options',
  registration: '/api/admin/passkeys/registration',
  authenticationOptions: '/api/admin/passkeys/authentication-options',
  authentication: '/api/admin/passkeys/authentication',
  passkeys: '/api/admin/passkeys',
  passkey: '/api/admin/passkeys/:id',
  passkeyName: '/api/admin/passkeys/:id/name',
  log: '/api/admin/log',
  reports: '/api/admin/reports',
  memeDecision: '/api/admin/memes/:id/decision',
  members: '/api/admin/members',
  member: '/api/admin/members/:username',
  suspend: '/api/admin/members/:username/suspension',
  lift: '/api/admin/members/:username/suspension/lift',
  endSessions: '/api/admin/members/:username/sessions/end',
  appealDecision: '/api/admin/appeals/:id/decision',
  prizeWeek: '/api/admin/prize-week',
  replayOpened: '/api/admin/prize-week/runs/:runId/opened',
  replayWatched: '/api/admin/prize-week/runs/:runId/watched',
  withdraw: '/api/admin/prize-week/approval/withdraw',
  approve: '/api/admin/prize-week/runs/:runId/approve',
  disqualify: '/api/admin/prize-week/runs/:runId/disqualify',
  overview: '/api/admin/overview',
} as const;

/** A member's standing (src/shared/standing.ts, docs/decisions/027). */
export const standingSchema = z.object({
  level: z.enum(STANDING_LEVELS),
  provenWallet: z.boolean(),
});
/** The standing of each member a console page names, by name: moderators see it beside every name. */
export const standingsSchema = z.record(z.string(), standingSchema);

export const ROLES = ['member', 'moderator', 'admin'] as const;
export type Role = (typeof ROLES)[number];
export type OperatorRole = Exclude<Role, 'member'>;

/**
 * A passkey sign-in counts this long after the session's last console request that needed one
 * (sliding), and never longer than PASSKEY_SIGN_IN_MAX_MS after the sign-in itself.
 */
export const PASSKEY_STEP_UP_MS = 15 * 60 * 1000;
/** The step-up's absolute limit: a working day, then the passkey again however busy the session. */
export const PASSKEY_SIGN_IN_MAX_MS = 12 * 60 * 60 * 1000;

/** The console's endpoints: a moderator's (an admin may call them too), and an admin's alone. */
export const moderators = endpointGroup({ tag: 'console', access: 'moderator' });
export const admins = endpointGroup({ tag: 'console', access: 'admin' });

/** An action on a member (or their meme, appeal or run): also refused below the member's rank. */
export const RANK_PROTECTED = ['RANK_PROTECTED'] as const;
/** A decision on a member (or their meme, appeal or run): one that exists, below the operator's rank. */
export const DECISION_REFUSALS = { 403: RANK_PROTECTED, 404: ['NOT_FOUND'] } as const;
/** A moderator's decision, with a reason for the log: each area names what it is on (params). */
export const decisions = endpointGroup(moderators, { errors: DECISION_REFUSALS });

export const idParamsSchema = z.object({
  id: z.coerce.number().int().positive().max(MAX_ROW_ID),
});

/** A reason the log keeps: every console decision gives one. */
export const reasonSchema = z
  .string({ error: 'Give a reason' })
  .trim()
  .min(3, 'Give a reason (at least 3 characters)')
  .max(500, 'Keep the reason under 500 characters');
/** A decision's body when its reason is all it takes. */
export const reasonBodySchema = z.object({ reason: reasonSchema });
