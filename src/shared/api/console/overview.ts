import { z } from 'zod';
import { defineEndpoint } from '../endpoint.ts';
import { consolePaths, moderators } from './common.ts';

export const OVERVIEW_SERIES = ['members', 'memes', 'votes', 'runs', 'reports'] as const;

export const overviewEndpoint = defineEndpoint(moderators, {
  method: 'GET',
  path: consolePaths.overview,
  id: 'consoleOverview',
  summary: 'The last 30 days per day (new members, memes, votes, runs, reports) and open reports',
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
