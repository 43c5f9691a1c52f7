import { z } from 'zod';
import { idParamsSchema } from './console/common.ts';
import { defineEndpoint, endpointGroup, okSchema } from './endpoint.ts';
import { appealPaths } from './paths.ts';
import { DISPLAYABLE_TEXT } from './text.ts';

/**
 * A suspended member's appeal (docs/decisions/022-operator-console.md): one per suspension, a
 * short text; a moderator upholds or lifts it in the console, and the decision is told to the
 * member on their next session read (`appealDecision` in GET /api/auth/me) until they have seen it.
 */
export const APPEAL_TEXT_MIN = 10;
export const APPEAL_TEXT_MAX = 500;

export const appealBodySchema = z.object({
  text: z
    .string({ error: 'Say why the suspension should be lifted' })
    .trim()
    .min(APPEAL_TEXT_MIN, `Say why in a sentence or two (at least ${APPEAL_TEXT_MIN} characters)`)
    .max(APPEAL_TEXT_MAX, `Keep the appeal under ${APPEAL_TEXT_MAX} characters`)
    // Line breaks are fine; other control characters (NUL among them) are not text.
    .refine((text) => DISPLAYABLE_TEXT.test(text.replace(/\r?\n/g, ' ')), 'Use plain text'),
});
export type AppealBody = z.infer<typeof appealBodySchema>;

export const APPEAL_DECISIONS = ['upheld', 'lifted'] as const;
export type AppealDecision = (typeof APPEAL_DECISIONS)[number];

/** The appeal's endpoints: a member's, and the 401 a visitor gets. */
const appealing = endpointGroup({
  tag: 'auth',
  access: 'member',
  signIn: 'Please sign in to appeal.',
});

/** A member's appeal, as its own answers show it. */
const appealSchema = z.object({ id: z.number().int(), createdAt: z.number() });

/** The decision on the member's appeal, until they have been shown it. */
export const appealDecisionNoticeSchema = z.object({
  id: z.number().int(),
  decision: z.enum(APPEAL_DECISIONS),
  /** The moderator's reason, for the member. */
  note: z.string(),
  decidedAt: z.number(),
});
export type AppealDecisionNotice = z.infer<typeof appealDecisionNoticeSchema>;

export const appealEndpoint = defineEndpoint(appealing, {
  method: 'POST',
  path: appealPaths.appeal,
  id: 'appealSuspension',
  summary: "Appeals the member's current suspension, once, with a short text for the moderators",
  body: appealBodySchema,
  status: 201,
  response: z.object({ appeal: appealSchema }),
  // A suspended member is who appeals; a new account's appeal waits for the raid's end.
  refuses: { raid: 'new accounts' },
  errors: { 409: ['APPEAL_EXISTS', 'NOT_SUSPENDED'], 429: ['RATE_LIMITED'] },
});

/** The member's current suspension and their appeal of it, if any: the form is offered once. */
export const appealStatusEndpoint = defineEndpoint(appealing, {
  method: 'GET',
  path: appealPaths.appeal,
  id: 'appealStatus',
  summary: "The member's current suspension and their appeal of it (one appeal per suspension)",
  response: z.object({
    /** Null when the member is not suspended now. */
    suspension: z.object({ reason: z.string(), endsAt: z.number().nullable() }).nullable(),
    /** The appeal of that suspension, when one was filed. */
    appeal: appealSchema.nullable(),
  }),
});

export const appealSeenEndpoint = defineEndpoint(appealing, {
  method: 'POST',
  path: appealPaths.seen,
  id: 'appealDecisionSeen',
  summary: 'The member has been shown the decision on their appeal: it is not told again',
  params: idParamsSchema,
  response: okSchema,
  errors: { 404: ['NOT_FOUND'], 429: ['RATE_LIMITED'] },
});
