import type { RateRule } from '../security/rate-limit.ts';

const MINUTE = 60_000;

/**
 * The gallery's throttles. Votes are counted per IP: generous, since a whole office may sit
 * behind one address, yet a script hammering from one machine is stopped within a minute.
 * Uploads count per member, because they cost disk and CPU.
 */
export const GALLERY_LIMITS = {
  votePerIp: { limit: 300, windowMs: MINUTE },
  uploadUrlPerMember: { limit: 30, windowMs: 10 * MINUTE },
  processPerMember: { limit: 30, windowMs: 10 * MINUTE },
  postPerMember: { limit: 20, windowMs: 10 * MINUTE },
  /** Reports per IP: more than anyone honest files in an hour, too few to report-bomb. */
  reportPerIp: { limit: 20, windowMs: 60 * MINUTE },
} as const satisfies Record<string, RateRule>;
