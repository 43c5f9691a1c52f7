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
 * The member's profile (balance, selected character) and owned characters. The shop reads and
 * updates them; the game reads the profile when a round starts and refreshes it after saving
 * coins. The keys are the URLs, so the default query function can also fetch them.
 */
export const userProfileQueryKey = ['/api/user-profile'] as const;
export const userCharactersQueryKey = ['/api/user-characters'] as const;
