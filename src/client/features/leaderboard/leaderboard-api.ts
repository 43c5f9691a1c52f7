import { useQuery } from '@tanstack/react-query';
import { leaderboardEndpoint, type LeaderboardEntry } from '#shared/api/game.ts';
import { callEndpoint } from '#client/lib/api-call.ts';
import { leaderboardQueryKey } from '#client/lib/query-keys.ts';

/** Leaderboard reads are retried twice, one second apart. */
const LEADERBOARD_RETRIES = 2;
const LEADERBOARD_RETRY_DELAY_MS = 1000;

function fetchLeaderboard(limit: number): Promise<LeaderboardEntry[]> {
  return callEndpoint(leaderboardEndpoint, { query: { limit } });
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
