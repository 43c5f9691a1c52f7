import { z } from 'zod';

/** The server's clock, so a page can correct a visitor's wrong clock for its countdowns. */
export const serverTimeResponseSchema = z.object({
  /** Milliseconds since the epoch. */
  now: z.int().nonnegative(),
});
export type ServerTimeResponse = z.infer<typeof serverTimeResponseSchema>;
