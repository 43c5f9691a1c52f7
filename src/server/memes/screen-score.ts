/**
 * What a stored classifier score means (uploads/screening.ts computes it): the unsafe share, 0 to
 * 1, or NOT_SCORED when the classifier could not answer in time; such a meme is held too.
 */
export const NOT_SCORED = -1;

/** Whether a stored score holds the meme for a moderator's review. */
export function holds(score: number | null, threshold: number): boolean {
  return score !== null && (score === NOT_SCORED || score >= threshold);
}
