// Query keys that more than one feature uses (features never import each other).

/**
 * The leaderboard's queries, shared by the leaderboard (which reads them) and the game (which
 * refreshes them after a submitted score): every limit sits under one root key.
 */
export const leaderboardQueryRoot = ['/api/leaderboard'] as const;

export function leaderboardQueryKey(limit: number) {
  return [...leaderboardQueryRoot, limit] as const;
}

/**
 * The member's profile (`GET /api/user-profile`: coins, selected character), read with the
 * default fetcher: the shop shows it, the game reads the character and refreshes it after
 * saving coins.
 */
export const userProfileQueryKey = ['/api/user-profile'] as const;
