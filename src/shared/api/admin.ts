import { z } from 'zod';
import { defineEndpoint } from './endpoint.ts';
import { STANDING_LEVELS } from '../standing.ts';
import { CONSOLE_PAGE } from './paths.ts';
import { DISPLAYABLE_TEXT, MAX_ROW_ID } from './text.ts';

/**
 * The operator console's API (docs/decisions/022-operator-console.md). Every route needs a role;
 * all but the passkey sign-in steps also need a passkey sign-in made in this session within
 * PASSKEY_STEP_UP_MS (`PASSKEY_REQUIRED` otherwise).
 */
export const adminPaths = {
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

/** The console's page. */
export const ADMIN_PAGE = CONSOLE_PAGE;

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

/** An action on a member (or their meme, appeal or run): also refused below the member's rank. */
const RANK_PROTECTED = ['RANK_PROTECTED'] as const;

/** WebAuthn options and responses travel as the JSON @simplewebauthn defines; checked there. */
const webAuthnJson = z.record(z.string(), z.unknown());

export const PASSKEY_NAME_MAX = 64;

/** What the operator calls a passkey ("YubiKey", "work laptop"), so a backup can be told apart. */
export const passkeyNameSchema = z
  .string({ error: 'Give the passkey a name' })
  .trim()
  .min(1, 'Give the passkey a name')
  .max(PASSKEY_NAME_MAX, `Keep the name under ${PASSKEY_NAME_MAX} characters`)
  .refine((name) => DISPLAYABLE_TEXT.test(name), 'Use plain text');

export const passkeySchema = z.object({
  id: z.number().int(),
  /** Null for a passkey added before passkeys had names (migration 028). */
  name: z.string().nullable(),
  createdAt: z.number(),
  lastUsedAt: z.number().nullable(),
  transports: z.array(z.string()),
});
export type Passkey = z.infer<typeof passkeySchema>;

export const operatorMeSchema = z.object({
  username: z.string(),
  role: z.enum(ROLES),
  passkeys: z.number().int(),
  /** Whether this session's passkey sign-in is recent enough for the console. */
  passkeyFresh: z.boolean(),
  /**
   * The relying party (PUBLIC_ORIGIN's host); null when passkeys cannot work here: an IP address,
   * or PUBLIC_ORIGIN unset and a host other than localhost.
   */
  rpId: z.string().nullable(),
  /** Why passkeys cannot work where the console was opened, and what to do instead. */
  hostProblem: z.string().nullable(),
});
export type OperatorMe = z.infer<typeof operatorMeSchema>;

export const operatorMeEndpoint = defineEndpoint({
  method: 'GET',
  path: adminPaths.me,
  id: 'operatorMe',
  summary: "The operator's role, passkeys and whether the session's passkey sign-in is fresh",
  tag: 'console',
  access: 'moderator',
  beforePasskey: true,
  response: operatorMeSchema,
});

export const passwordBodySchema = z.object({ password: z.string().min(1).max(128) });

export const registrationOptionsEndpoint = defineEndpoint({
  method: 'POST',
  path: adminPaths.registrationOptions,
  id: 'passkeyRegistrationOptions',
  summary: 'WebAuthn options to add a passkey; needs the password again',
  tag: 'console',
  access: 'moderator',
  beforePasskey: true,
  body: passwordBodySchema,
  response: webAuthnJson,
  errors: { 400: ['PASSKEY_HOST', 'PASSKEY_NO_ORIGIN'], 403: ['WRONG_PASSWORD'] },
});

export const registrationEndpoint = defineEndpoint({
  method: 'POST',
  path: adminPaths.registration,
  id: 'passkeyRegistration',
  summary: "Adds the passkey the browser made, named; counts as this session's passkey sign-in",
  tag: 'console',
  access: 'moderator',
  beforePasskey: true,
  body: z.object({ response: webAuthnJson, name: passkeyNameSchema.optional() }),
  status: 201,
  response: z.object({ passkey: passkeySchema }),
  errors: { 400: ['PASSKEY_HOST', 'PASSKEY_NO_ORIGIN', 'PASSKEY_INVALID'] },
});

export const authenticationOptionsEndpoint = defineEndpoint({
  method: 'POST',
  path: adminPaths.authenticationOptions,
  id: 'passkeyAuthenticationOptions',
  summary: "WebAuthn options to sign in with one of the operator's passkeys",
  tag: 'console',
  access: 'moderator',
  beforePasskey: true,
  response: webAuthnJson,
  errors: { 400: ['PASSKEY_HOST', 'PASSKEY_NO_ORIGIN'], 404: ['NOT_FOUND'] },
});

export const authenticationEndpoint = defineEndpoint({
  method: 'POST',
  path: adminPaths.authentication,
  id: 'passkeyAuthentication',
  summary:
    "Checks the passkey sign-in; the session's console access lasts 15 min from each use, 12 h at most",
  tag: 'console',
  access: 'moderator',
  beforePasskey: true,
  body: z.object({ response: webAuthnJson }),
  response: z.object({ ok: z.literal(true) }),
  errors: { 400: ['PASSKEY_HOST', 'PASSKEY_NO_ORIGIN', 'PASSKEY_INVALID'] },
});

export const listPasskeysEndpoint = defineEndpoint({
  method: 'GET',
  path: adminPaths.passkeys,
  id: 'listPasskeys',
  summary: "The operator's passkeys",
  tag: 'console',
  access: 'moderator',
  response: z.object({ passkeys: z.array(passkeySchema) }),
});

export const idParamsSchema = z.object({
  id: z.coerce.number().int().positive().max(MAX_ROW_ID),
});

export const removePasskeyEndpoint = defineEndpoint({
  method: 'DELETE',
  path: adminPaths.passkey,
  id: 'removePasskey',
  summary: "Removes one of the operator's passkeys",
  tag: 'console',
  access: 'moderator',
  params: idParamsSchema,
  response: z.object({ ok: z.literal(true) }),
  errors: { 404: ['NOT_FOUND'] },
});

export const renamePasskeyEndpoint = defineEndpoint({
  method: 'PUT',
  path: adminPaths.passkeyName,
  id: 'renamePasskey',
  summary: "Names one of the operator's passkeys",
  tag: 'console',
  access: 'moderator',
  params: idParamsSchema,
  body: z.object({ name: passkeyNameSchema }),
  response: z.object({ passkey: passkeySchema }),
  errors: { 404: ['NOT_FOUND'] },
});

export const logEntrySchema = z.object({
  id: z.number().int(),
  operatorId: z.number().int().nullable(),
  operatorName: z.string(),
  operatorAddress: z.string(),
  kind: z.string(),
  targetType: z.string(),
  targetId: z.string(),
  targetLabel: z.string(),
  reason: z.string(),
  details: z.record(z.string(), z.unknown()),
  createdAt: z.number(),
});
export type LogEntry = z.infer<typeof logEntrySchema>;

export const LOG_FIRST_DAY = '2000-01-01';
export const LOG_LAST_DAY = '2099-12-31';

/** A day as the log's filter takes it: `YYYY-MM-DD`, UTC, a real date within the site's span. */
const logDaySchema = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'Give a date as YYYY-MM-DD')
  .refine((day) => {
    const ms = Date.parse(`${day}T00:00:00Z`);
    return (
      Number.isFinite(ms) &&
      new Date(ms).toISOString().slice(0, 10) === day &&
      day >= LOG_FIRST_DAY &&
      day <= LOG_LAST_DAY
    );
  }, 'Give a real date between 2000-01-01 and 2099-12-31');
export const LOG_PAGE_MAX = 100;

/** The start of a filter day (UTC midnight, epoch ms). */
export const logDayStart = (day: string): number => Date.parse(`${day}T00:00:00Z`);

export const logQuerySchema = z
  .object({
    operator: z.string().trim().max(64).optional(),
    kind: z.string().trim().max(64).optional(),
    /** The first day shown (UTC), whole. */
    from: logDaySchema.optional(),
    /** The last day shown (UTC), whole. */
    to: logDaySchema.optional(),
    /** The paging cursor: the `next` of the page before; rows older than it. */
    before: z.coerce.number().int().positive().max(MAX_ROW_ID).optional(),
    limit: z.coerce.number().int().min(1).max(LOG_PAGE_MAX).default(50),
  })
  .refine((q) => !q.from || !q.to || q.from <= q.to, {
    message: 'The "from" date must not be after the "to" date',
    path: ['to'],
  });

export const logEndpoint = defineEndpoint({
  method: 'GET',
  path: adminPaths.log,
  id: 'operatorLog',
  summary: 'The operator log, newest first, filtered by operator, kind and days, a page at a time',
  tag: 'console',
  access: 'moderator',
  query: logQuerySchema,
  response: z.object({
    entries: z.array(logEntrySchema),
    kinds: z.array(z.string()),
    /** The `before` of the next (older) page; null on the last page. */
    next: z.number().int().nullable(),
  }),
});

export const MEME_DECISIONS = ['hide', 'unhide', 'delete', 'dismiss'] as const;

/** A reason the log keeps: every console decision gives one. */
export const reasonSchema = z
  .string({ error: 'Give a reason' })
  .trim()
  .min(3, 'Give a reason (at least 3 characters)')
  .max(500, 'Keep the reason under 500 characters');

export const reportsQuerySchema = z.object({
  status: z.enum(['open', 'resolved']).default('open'),
  sort: z.enum(['newest', 'most']).default('most'),
  limit: z.coerce.number().int().min(1).max(200).default(50),
});

export const queueMemeSchema = z.object({
  id: z.number().int(),
  title: z.string(),
  /** Null once deleted. */
  imageUrl: z.string().nullable(),
  thumbnailUrl: z.string().nullable(),
  hidden: z.boolean(),
  deleted: z.boolean(),
  uploader: z.string().nullable(),
  /** Held for review (docs/decisions/027): shown blurred. */
  held: z.boolean().optional(),
  /**
   * Who held it: the image classifier at upload, or raid mode's entry (a new account's post of
   * the hour before); absent for memes held before this was written down.
   */
  heldBy: z.enum(['classifier', 'raid']).optional(),
  /** The classifier's score, 0 to 1. */
  screenScore: z.number().nullable().optional(),
});

export const queueEntrySchema = z.object({
  meme: queueMemeSchema,
  reports: z.number().int(),
  reasons: z.record(z.string(), z.number().int()),
  firstReportAt: z.number(),
  lastReportAt: z.number(),
  /** For resolved entries: the decision that settled the reports. */
  decision: z
    .object({
      kind: z.enum(MEME_DECISIONS),
      decidedAt: z.number(),
      operator: z.string().nullable(),
      reason: z.string().nullable(),
    })
    .nullable(),
});
export type QueueEntry = z.infer<typeof queueEntrySchema>;

export const appealEntrySchema = z.object({
  id: z.number().int(),
  member: z.string(),
  text: z.string(),
  createdAt: z.number(),
  suspension: z.object({
    id: z.number().int(),
    reason: z.string(),
    endsAt: z.number().nullable(),
    liftedAt: z.number().nullable(),
  }),
  decision: z.enum(['upheld', 'lifted']).nullable(),
  decidedAt: z.number().nullable(),
});
export type AppealEntry = z.infer<typeof appealEntrySchema>;

export const reportsEndpoint = defineEndpoint({
  method: 'GET',
  path: adminPaths.reports,
  id: 'reportQueue',
  summary: 'Reported memes (open or resolved) with counts and reasons, and appeals waiting',
  tag: 'console',
  access: 'moderator',
  query: reportsQuerySchema,
  response: z.object({
    entries: z.array(queueEntrySchema),
    appeals: z.array(appealEntrySchema),
    openReports: z.number().int(),
    standings: standingsSchema,
  }),
});

export const memeDecisionEndpoint = defineEndpoint({
  method: 'POST',
  path: adminPaths.memeDecision,
  id: 'decideOnMeme',
  summary: 'Hide, unhide, delete or dismiss the reports of a meme, with a reason for the log',
  tag: 'console',
  access: 'moderator',
  params: idParamsSchema,
  body: z.object({ decision: z.enum(MEME_DECISIONS), reason: reasonSchema }),
  response: z.object({ decisionId: z.number().int(), settledReports: z.number().int() }),
  errors: { 403: RANK_PROTECTED, 404: ['NOT_FOUND'] },
});

export const APPEAL_VERDICTS = ['uphold', 'lift'] as const;

export const appealDecisionEndpoint = defineEndpoint({
  method: 'POST',
  path: adminPaths.appealDecision,
  id: 'decideOnAppeal',
  summary:
    'Upholds or lifts an appealed suspension, with a reason the log keeps and the member sees',
  tag: 'console',
  access: 'moderator',
  params: idParamsSchema,
  body: z.object({ decision: z.enum(APPEAL_VERDICTS), reason: reasonSchema }),
  response: z.object({ appeal: appealEntrySchema }),
  errors: { 403: RANK_PROTECTED, 404: ['NOT_FOUND'], 409: ['APPEAL_DECIDED'] },
});

export const SUSPENSION_LENGTHS = ['day', 'week', 'month', 'forever'] as const;

/** What a suspension's clean-up took, or a lift's restore put back (docs/decisions/027). */
const cleanedSchema = z.object({
  memes: z.number().int(),
  votes: z.number().int(),
  reports: z.number().int(),
});
export type SuspensionLength = (typeof SUSPENSION_LENGTHS)[number];

export const suspensionSchema = z.object({
  id: z.number().int(),
  reason: z.string(),
  startsAt: z.number(),
  /** Null: for good. */
  endsAt: z.number().nullable(),
  liftedAt: z.number().nullable(),
  active: z.boolean(),
});

export const memberDetailSchema = z.object({
  member: z.object({
    id: z.number().int(),
    username: z.string(),
    role: z.enum(ROLES),
    coins: z.number().int(),
    createdAt: z.number(),
    wallet: z.string().nullable(),
    sessions: z.number().int(),
  }),
  memes: z.array(
    z.object({
      id: z.number().int(),
      title: z.string(),
      hidden: z.boolean(),
      upvotes: z.number().int(),
      downvotes: z.number().int(),
      createdAt: z.number(),
    }),
  ),
  runs: z.array(
    z.object({ score: z.number().int(), coins: z.number().int().nullable(), at: z.number() }),
  ),
  reportsAgainst: z.number().int(),
  suspensions: z.array(suspensionSchema),
  decisions: z.array(logEntrySchema),
  standing: standingSchema.optional(),
});
export type MemberDetail = z.infer<typeof memberDetailSchema>;

export const usernameParamsSchema = z.object({
  username: z.string().regex(/^[A-Za-z0-9_-]{1,32}$/, 'Not a username'),
});

export const membersEndpoint = defineEndpoint({
  method: 'GET',
  path: adminPaths.members,
  id: 'findMembers',
  summary: 'Members whose name starts with the text given',
  tag: 'console',
  access: 'moderator',
  query: z.object({ q: z.string().trim().min(1).max(32) }),
  response: z.object({
    members: z.array(z.object({ id: z.number().int(), username: z.string(), role: z.enum(ROLES) })),
    standings: standingsSchema,
  }),
});

export const memberEndpoint = defineEndpoint({
  method: 'GET',
  path: adminPaths.member,
  id: 'memberDetail',
  summary: "A member's memes, runs, coins, wallet, reports against them and past decisions",
  tag: 'console',
  access: 'moderator',
  params: usernameParamsSchema,
  response: memberDetailSchema,
  errors: { 404: ['NOT_FOUND'] },
});

export const suspendEndpoint = defineEndpoint({
  method: 'POST',
  path: adminPaths.suspend,
  id: 'suspendMember',
  summary: 'Suspends a member for a day, a week, a month or for good, with a reason',
  tag: 'console',
  access: 'moderator',
  params: usernameParamsSchema,
  body: z.object({
    length: z.enum(SUSPENSION_LENGTHS),
    reason: reasonSchema,
    /** Also hide every meme they have up, and take off their votes and open reports (027). */
    cleanUp: z.boolean().optional(),
  }),
  response: z.object({ suspension: suspensionSchema, cleanedUp: cleanedSchema.nullable() }),
  errors: { 403: RANK_PROTECTED, 404: ['NOT_FOUND'], 409: ['SUSPENDED'] },
});

export const liftEndpoint = defineEndpoint({
  method: 'POST',
  path: adminPaths.lift,
  id: 'liftSuspension',
  summary: "Lifts a member's suspension, with a reason",
  tag: 'console',
  access: 'moderator',
  params: usernameParamsSchema,
  body: z.object({
    reason: reasonSchema,
    /** Also put back what the suspension's clean-up took (027). */
    restore: z.boolean().optional(),
  }),
  response: z.object({ lifted: z.number().int(), restored: cleanedSchema.nullable() }),
  errors: { 403: RANK_PROTECTED, 404: ['NOT_FOUND'] },
});

export const endSessionsEndpoint = defineEndpoint({
  method: 'POST',
  path: adminPaths.endSessions,
  id: 'endMemberSessions',
  summary: 'Signs a member out everywhere, with a reason',
  tag: 'console',
  access: 'moderator',
  params: usernameParamsSchema,
  body: z.object({ reason: reasonSchema }),
  response: z.object({ ended: z.number().int() }),
  errors: { 403: RANK_PROTECTED, 404: ['NOT_FOUND'] },
});

export const OVERVIEW_SERIES = ['members', 'memes', 'votes', 'runs', 'reports'] as const;

export const overviewEndpoint = defineEndpoint({
  method: 'GET',
  path: adminPaths.overview,
  id: 'consoleOverview',
  summary: 'The last 30 days per day (new members, memes, votes, runs, reports) and open reports',
  tag: 'console',
  access: 'moderator',
  response: z.object({
    /** Each day's start (UTC midnight, epoch ms), oldest first. */
    days: z.array(z.number()),
    // An object of named keys, not a record: OpenAPI then defines each required property.
    series: z.object(
      Object.fromEntries(OVERVIEW_SERIES.map((name) => [name, z.array(z.number().int())])) as {
        [K in (typeof OVERVIEW_SERIES)[number]]: z.ZodArray<z.ZodNumber>;
      },
    ),
    openReports: z.number().int(),
  }),
});

/** A run's id in a prize-week path. */
const runParamsSchema = z.object({ runId: z.string().min(1).max(64) });

export const prizeWeekEntrySchema = z.object({
  rank: z.number().int(),
  entryId: z.number().int(),
  runId: z.string(),
  playerName: z.string(),
  member: z.boolean(),
  score: z.number().int(),
  level: z.number().int(),
  tasks: z.number().int(),
  powerUps: z.number().int(),
  gameTime: z.number().int(),
  /** The prize rule's verdict (prize:review): payable, or why not. */
  payable: z.boolean(),
  why: z.string().nullable(),
  wallet: z.string().nullable(),
  /** The run's statistics (for the reviewer: they point at a run, never refuse one). */
  statistics: z.record(z.string(), z.number()).nullable(),
  signs: z.array(z.string()),
  /** Whether this operator has watched the replay to its end. */
  watched: z.boolean(),
  /** The week was paid to this run: it cannot be disqualified. */
  paidTo: z.boolean(),
});

export const prizeWeekEndpoint = defineEndpoint({
  method: 'GET',
  path: adminPaths.prizeWeek,
  id: 'prizeWeek',
  summary: "The closed week's best runs, as prize:review shows them (admin only)",
  tag: 'console',
  access: 'admin',
  response: z.object({
    week: z.string(),
    open: z.boolean(),
    entries: z.array(prizeWeekEntrySchema),
    approved: z
      .object({ runId: z.string(), playerName: z.string(), wallet: z.string().nullable() })
      .nullable(),
    paid: z.boolean(),
  }),
});

export const replayOpenedEndpoint = defineEndpoint({
  method: 'POST',
  path: adminPaths.replayOpened,
  id: 'prizeReplayOpened',
  summary:
    'Records that this operator opened a run replay; "watched" is timed from it (admin only)',
  tag: 'console',
  access: 'admin',
  params: runParamsSchema,
  response: z.object({ ok: z.literal(true) }),
  errors: { 404: ['NOT_FOUND'] },
});

export const withdrawApprovalEndpoint = defineEndpoint({
  method: 'POST',
  path: adminPaths.withdraw,
  id: 'prizeWithdrawApproval',
  summary: "Withdraws the closed week's approval before payment, with a reason (admin only)",
  tag: 'console',
  access: 'admin',
  body: z.object({ reason: reasonSchema }),
  response: z.object({ ok: z.literal(true) }),
  errors: { 409: ['PRIZE_NOT_APPROVED', 'PRIZE_ALREADY_PAID', 'PRIZE_PAYMENT_PENDING'] },
});

export const replayWatchedEndpoint = defineEndpoint({
  method: 'POST',
  path: adminPaths.replayWatched,
  id: 'prizeReplayWatched',
  summary: 'Records that this operator watched a run replay to its end (admin only)',
  tag: 'console',
  access: 'admin',
  params: runParamsSchema,
  response: z.object({ ok: z.literal(true) }),
  errors: { 404: ['NOT_FOUND'], 409: ['REPLAY_NOT_WATCHED'] },
});

export const approveRunEndpoint = defineEndpoint({
  method: 'POST',
  path: adminPaths.approve,
  id: 'prizeApprove',
  summary: "Approves the closed week's prize for a run this operator watched (as prize:approve)",
  tag: 'console',
  access: 'admin',
  params: runParamsSchema,
  body: z.object({ confirmWallet: z.string().max(64).optional() }),
  response: z.object({ message: z.string() }),
  errors: { 403: RANK_PROTECTED, 409: ['REPLAY_NOT_WATCHED', 'PRIZE_REFUSED', 'RUN_DISQUALIFIED'] },
});

export const disqualifyRunEndpoint = defineEndpoint({
  method: 'POST',
  path: adminPaths.disqualify,
  id: 'prizeDisqualify',
  summary: 'Disqualifies a run with a public reason: it leaves the weekly board (admin only)',
  tag: 'console',
  access: 'admin',
  params: runParamsSchema,
  body: z.object({ reason: reasonSchema }),
  response: z.object({ withdrewApproval: z.boolean() }),
  errors: {
    403: RANK_PROTECTED,
    404: ['NOT_FOUND'],
    409: ['RUN_DISQUALIFIED', 'PRIZE_ALREADY_PAID', 'PRIZE_PAYMENT_PENDING'],
  },
});
