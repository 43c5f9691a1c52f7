import { z } from 'zod';
import { defineEndpoint, endpointGroup } from './endpoint.ts';
import { sitePaths } from './paths.ts';

/** The server's clock, so a page can correct a visitor's wrong clock for its countdowns. */
export const serverTimeResponseSchema = z.object({
  /** Milliseconds since the epoch. */
  now: z.int().nonnegative(),
});
export type ServerTimeResponse = z.infer<typeof serverTimeResponseSchema>;

/** What the site tells any page about itself. */
export const siteFacts = endpointGroup({ tag: 'site', access: 'public' });

/** Read by client/lib/server-clock.ts with plain fetch (no cache, no cookie, no zod on first load). */
export const serverTimeEndpoint = defineEndpoint(siteFacts, {
  method: 'GET',
  path: sitePaths.time,
  id: 'getServerTime',
  summary: "The server's clock, in milliseconds since the epoch",
  response: serverTimeResponseSchema,
});
