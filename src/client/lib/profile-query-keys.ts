/**
 * The member's profile (balance, selected character) and owned characters. The shop reads and
 * updates them; the game reads the profile when a round starts and refreshes it after saving
 * coins. The keys are the URLs, so the default query function can also fetch them.
 */
export const userProfileQueryKey = ['/api/user-profile'] as const;
export const userCharactersQueryKey = ['/api/user-characters'] as const;
