// The operator log: every console and CLI decision, with its reason.
import { z } from 'zod';
import { defineEndpoint } from '../endpoint.ts';
import { MAX_ROW_ID } from '../text.ts';
import { consolePaths, moderators } from './common.ts';

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

export const logEndpoint = defineEndpoint(moderators, {
  method: 'GET',
  path: consolePaths.log,
  id: 'operatorLog',
  summary: 'The operator log, newest first, filtered by operator, kind and days, a page at a time',
  query: logQuerySchema,
  response: z.object({
    entries: z.array(logEntrySchema),
    kinds: z.array(z.string()),
    /** The `before` of the next (older) page; null on the last page. */
    next: z.number().int().nullable(),
  }),
});
