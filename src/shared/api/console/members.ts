// Members: finding one, what they did, and suspending, lifting and signing them out.
import { z } from 'zod';
import { defineEndpoint, endpointGroup } from '../endpoint.ts';
import {
  consolePaths,
  decisions,
  moderators,
  reasonBodySchema,
  reasonSchema,
  ROLES,
  standingSchema,
  standingsSchema,
} from './common.ts';
import { logEntrySchema } from './log.ts';

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

export const membersEndpoint = defineEndpoint(moderators, {
  method: 'GET',
  path: consolePaths.members,
  id: 'findMembers',
  summary: 'Members whose name starts with the text given',
  query: z.object({ q: z.string().trim().min(1).max(32) }),
  response: z.object({
    members: z.array(z.object({ id: z.number().int(), username: z.string(), role: z.enum(ROLES) })),
    standings: standingsSchema,
  }),
});

export const memberEndpoint = defineEndpoint(moderators, {
  method: 'GET',
  path: consolePaths.member,
  id: 'memberDetail',
  summary: "A member's memes, runs, coins, wallet, reports against them and past decisions",
  params: usernameParamsSchema,
  response: memberDetailSchema,
  errors: { 404: ['NOT_FOUND'] },
});

/** What a moderator decides about a member, by name. */
const decisionOnMember = endpointGroup(decisions, { params: usernameParamsSchema });

export const suspendEndpoint = defineEndpoint(decisionOnMember, {
  method: 'POST',
  path: consolePaths.suspend,
  id: 'suspendMember',
  summary: 'Suspends a member for a day, a week, a month or for good, with a reason',
  body: z.object({
    length: z.enum(SUSPENSION_LENGTHS),
    reason: reasonSchema,
    /** Also hide every meme they have up, and take off their votes and open reports (027). */
    cleanUp: z.boolean().optional(),
  }),
  response: z.object({ suspension: suspensionSchema, cleanedUp: cleanedSchema.nullable() }),
  errors: { 409: ['SUSPENDED'] },
});

export const liftEndpoint = defineEndpoint(decisionOnMember, {
  method: 'POST',
  path: consolePaths.lift,
  id: 'liftSuspension',
  summary: "Lifts a member's suspension, with a reason",
  body: z.object({
    reason: reasonSchema,
    /** Also put back what the suspension's clean-up took (027). */
    restore: z.boolean().optional(),
  }),
  response: z.object({ lifted: z.number().int(), restored: cleanedSchema.nullable() }),
});

export const endSessionsEndpoint = defineEndpoint(decisionOnMember, {
  method: 'POST',
  path: consolePaths.endSessions,
  id: 'endMemberSessions',
  summary: 'Signs a member out everywhere, with a reason',
  body: reasonBodySchema,
  response: z.object({ ended: z.number().int() }),
});
