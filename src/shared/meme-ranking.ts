/**
 * Hot: Lemmy's published rank (lemmy/crates/db_schema, `hot_rank`), score against age:
 *   rank = log10(max(1, 3 + score)) / (hours + 2) ^ 1.8
 * where score is up minus down votes and hours the meme's age. A new meme starts near the top
 * and sinks over a day or two unless votes hold it up; a meme at -2 or below ranks 0.
 */
export function hotRank(upvotes: number, downvotes: number, ageMs: number): number {
  const hours = Math.max(0, ageMs) / 3_600_000;
  return Math.log10(Math.max(1, 3 + upvotes - downvotes)) / Math.pow(hours + 2, 1.8);
}

/** Top of the week: memes posted in the last seven days, by score. */
export const TOP_WINDOW_MS = 7 * 24 * 3_600_000;
