// Query keys that more than one feature uses (features never import each other).

import { queryOptions } from '@tanstack/react-query';
import { accountPaths, gamePaths, shopPaths } from '#shared/api/paths.ts';
import { accountEndpoint } from '#shared/api/members.ts';
import { profileEndpoint } from '#shared/api/shop.ts';
import { callEndpoint } from './api-call.ts';

/**
 * The leaderboard's queries, shared by the leaderboard (which reads them) and the game (which
 * refreshes them after a submitted score): every limit sits under one root key.
 */
export const leaderboardQueryRoot = [gamePaths.leaderboard] as const;

export function leaderboardQueryKey(limit: number) {
  return [...leaderboardQueryRoot, limit] as const;
}

/**
 * The member's profile (balance, selected character) and owned characters. The shop reads and
 * updates them; the game reads the profile when a round starts and refreshes it after saving
 * coins. The keys are the URLs.
 */
export const userProfileQueryKey = [shopPaths.profile] as const;
export const userCharactersQueryKey = [shopPaths.characters] as const;

/** The profile read, one definition for both readers so the cache holds one shape. */
export const userProfileQuery = queryOptions({
  queryKey: userProfileQueryKey,
  queryFn: () => callEndpoint(profileEndpoint),
});

/**
 * The member's own account (holder status, settings): their page reads and changes it, the shop
 * reads it for the holders' row.
 */
export const accountQueryKey = [accountPaths.account] as const;

export const accountQuery = queryOptions({
  queryKey: accountQueryKey,
  queryFn: () => callEndpoint(accountEndpoint),
});
