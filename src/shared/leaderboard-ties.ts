/**
 * The scores more than one shown entry holds. Every full 15-minute run scores the same (the
 * cap), and ties rank the earlier entry first (game/repository.ts), so the board marks tied
 * entries instead of letting the order alone suggest one run beat another
 * (docs/decisions/020-reporters-and-visitor-votes.md).
 */
export function tiedScores(entries: readonly { score: number }[]): Set<number> {
  const seen = new Set<number>();
  const tied = new Set<number>();
  for (const { score } of entries) {
    if (seen.has(score)) tied.add(score);
    seen.add(score);
  }
  return tied;
}
