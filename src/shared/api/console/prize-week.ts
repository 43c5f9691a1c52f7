// Prize week (admins only): the closed week's runs, their replays, approval and disqualification.
import { z } from 'zod';
import { defineEndpoint, endpointGroup, okSchema } from '../endpoint.ts';
import {
  admins,
  consolePaths,
  DECISION_REFUSALS,
  RANK_PROTECTED,
  reasonBodySchema,
} from './common.ts';

/** What an admin does with one of the week's runs, named by its id in the path. */
const onRun = endpointGroup(admins, { params: z.object({ runId: z.string().min(1).max(64) }) });

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

export const prizeWeekEndpoint = defineEndpoint(admins, {
  method: 'GET',
  path: consolePaths.prizeWeek,
  id: 'prizeWeek',
  summary: "The closed week's best runs, as prize:review shows them (admin only)",
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

export const replayOpenedEndpoint = defineEndpoint(onRun, {
  method: 'POST',
  path: consolePaths.replayOpened,
  id: 'prizeReplayOpened',
  summary:
    'Records that this operator opened a run replay; "watched" is timed from it (admin only)',
  response: okSchema,
  errors: { 404: ['NOT_FOUND'] },
});

export const withdrawApprovalEndpoint = defineEndpoint(admins, {
  method: 'POST',
  path: consolePaths.withdraw,
  id: 'prizeWithdrawApproval',
  summary: "Withdraws the closed week's approval before payment, with a reason (admin only)",
  body: reasonBodySchema,
  response: okSchema,
  errors: { 409: ['PRIZE_NOT_APPROVED', 'PRIZE_ALREADY_PAID', 'PRIZE_PAYMENT_PENDING'] },
});

export const replayWatchedEndpoint = defineEndpoint(onRun, {
  method: 'POST',
  path: consolePaths.replayWatched,
  id: 'prizeReplayWatched',
  summary: 'Records that this operator watched a run replay to its end (admin only)',
  response: okSchema,
  errors: { 404: ['NOT_FOUND'], 409: ['REPLAY_NOT_WATCHED'] },
});

export const approveRunEndpoint = defineEndpoint(onRun, {
  method: 'POST',
  path: consolePaths.approve,
  id: 'prizeApprove',
  summary: "Approves the closed week's prize for a run this operator watched (as prize:approve)",
  body: z.object({ confirmWallet: z.string().max(64).optional() }),
  response: z.object({ message: z.string() }),
  errors: { 403: RANK_PROTECTED, 409: ['REPLAY_NOT_WATCHED', 'PRIZE_REFUSED', 'RUN_DISQUALIFIED'] },
});

export const disqualifyRunEndpoint = defineEndpoint(onRun, {
  method: 'POST',
  path: consolePaths.disqualify,
  id: 'prizeDisqualify',
  summary: 'Disqualifies a run with a public reason: it leaves the weekly board (admin only)',
  body: reasonBodySchema,
  response: z.object({ withdrewApproval: z.boolean() }),
  errors: {
    ...DECISION_REFUSALS,
    409: ['RUN_DISQUALIFIED', 'PRIZE_ALREADY_PAID', 'PRIZE_PAYMENT_PENDING'],
  },
});
