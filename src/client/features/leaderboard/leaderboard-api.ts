import { gamePaths } from '#shared/api/paths.ts';
import { useQuery } from '@tanstack/react-query';
import { leaderboardResponseSchema, type LeaderboardEntry } from '#shared/api/game.ts';
import { ApiError } from '#client/lib/api-client.ts';
import { leaderboardQueryKey } from '#client/lib/query-keys.ts';

/** Spec section 9: leaderboard reads are retried twice, one second apart. */
export const LEADERBOARD_RETRIES = 2;
export const LEADERBOARD_RETRY_DELAY_MS = 1000;

export async function fetchLeaderboard(limit: number): Promise<LeaderboardEntry[]> {
  const res = await fetch(`${gamePaths.leaderboard}?limit=${limit}`, { credentials: 'include' });
  if (!res.ok) throw new ApiError(res.status, await res.text(), res.statusText);
  return leaderboardResponseSchema.parse(await res.json());
}

export function useLeaderboard(limit: number, enabled = true) {
  return useQuery({
    queryKey: leaderboardQueryKey(limit),
    queryFn: () => fetchLeaderboard(limit),
    enabled,
    retry: LEADERBOARD_RETRIES,
    retryDelay: LEADERBOARD_RETRY_DELAY_MS,
  });
}
