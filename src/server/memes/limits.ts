import { HOUR_MS, MINUTE_MS } from '#shared/time.ts';
import type { RateRule } from '../security/rate-limit.ts';

/**
 * The gallery's throttles. Votes are counted per IP: generous, since a whole office may sit
 * behind one address, yet a script hammering from one machine is stopped within a minute.
 * Uploads count per member, because they cost disk and CPU.
 */
export const GALLERY_LIMITS = {
  votePerIp: { limit: 300, windowMs: MINUTE_MS },
  uploadUrlPerMember: { limit: 30, windowMs: 10 * MINUTE_MS },
  processPerMember: { limit: 30, windowMs: 10 * MINUTE_MS },
  postPerMember: { limit: 20, windowMs: 10 * MINUTE_MS },
  /** Reports per IP: more than anyone honest files in an hour, too few to report-bomb. */
  reportPerIp: { limit: 20, windowMs: HOUR_MS },
} as const satisfies Record<string, RateRule>;
