// The queue: reported memes (and memes held for review) and the appeals waiting.
import { z } from 'zod';
import { defineEndpoint, endpointGroup } from '../endpoint.ts';
import {
  consolePaths,
  decisions,
  idParamsSchema,
  moderators,
  reasonSchema,
  standingsSchema,
} from './common.ts';

export const MEME_DECISIONS = ['hide', 'unhide', 'delete', 'dismiss'] as const;

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

export const reportsEndpoint = defineEndpoint(moderators, {
  method: 'GET',
  path: consolePaths.reports,
  id: 'reportQueue',
  summary: 'Reported memes (open or resolved) with counts and reasons, and appeals waiting',
  query: reportsQuerySchema,
  response: z.object({
    entries: z.array(queueEntrySchema),
    appeals: z.array(appealEntrySchema),
    openReports: z.number().int(),
    standings: standingsSchema,
  }),
});

/** A moderator's decision on a meme or an appeal, by its id. */
const decisionOnEntry = endpointGroup(decisions, { params: idParamsSchema });

export const memeDecisionEndpoint = defineEndpoint(decisionOnEntry, {
  method: 'POST',
  path: consolePaths.memeDecision,
  id: 'decideOnMeme',
  summary: 'Hide, unhide, delete or dismiss the reports of a meme, with a reason for the log',
  body: z.object({ decision: z.enum(MEME_DECISIONS), reason: reasonSchema }),
  response: z.object({ decisionId: z.number().int(), settledReports: z.number().int() }),
});

export const APPEAL_VERDICTS = ['uphold', 'lift'] as const;

export const appealDecisionEndpoint = defineEndpoint(decisionOnEntry, {
  method: 'POST',
  path: consolePaths.appealDecision,
  id: 'decideOnAppeal',
  summary:
    'Upholds or lifts an appealed suspension, with a reason the log keeps and the member sees',
  body: z.object({ decision: z.enum(APPEAL_VERDICTS), reason: reasonSchema }),
  response: z.object({ appeal: appealEntrySchema }),
  errors: { 409: ['APPEAL_DECIDED'] },
});
