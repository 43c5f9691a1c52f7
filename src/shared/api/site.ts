import { z } from 'zod';
import { defineEndpoint } from './endpoint.ts';
import { sitePaths } from './paths.ts';

/** The server's clock, so a page can correct a visitor's wrong clock for its countdowns. */
export const serverTimeResponseSchema = z.object({
  /** Milliseconds since the epoch. */
  now: z.int().nonnegative(),
});
export type ServerTimeResponse = z.infer<typeof serverTimeResponseSchema>;

/** Read by client/lib/server-clock.ts with plain fetch (no cache, no cookie, no zod on first load). */
export const serverTimeEndpoint = defineEndpoint({
  method: 'GET',
  path: sitePaths.time,
  id: 'getServerTime',
  summary: "The server's clock, in milliseconds since the epoch",
  tag: 'site',
  access: 'public',
  response: serverTimeResponseSchema,
});
