import type { QueryClient } from '@tanstack/react-query';
import {
  addCoinsEndpoint,
  issueRunEndpoint,
  progressEndpoint,
  submitScoreEndpoint,
  type AddCoinsBody,
  type AddCoinsResponse,
  type GameRunResponse,
  type ProgressBody,
  type ProgressResponse,
  type SubmitScoreBody,
  type SubmitScoreResponse,
} from '#shared/api/game.ts';
import { DEFAULT_CHARACTER_KEY, type CharacterKey } from '#shared/characters.ts';
import { callEndpoint } from '#client/lib/api-call.ts';
import { userProfileQuery } from '#client/lib/query-keys.ts';

export function requestRun(): Promise<GameRunResponse> {
  return callEndpoint(issueRunEndpoint);
}

export function reportProgress(runId: string, body: ProgressBody): Promise<ProgressResponse> {
  return callEndpoint(progressEndpoint, { params: { runId }, body });
}

export function submitScore(body: SubmitScoreBody): Promise<SubmitScoreResponse> {
  return callEndpoint(submitScoreEndpoint, { body });
}

export function addCoins(body: AddCoinsBody): Promise<AddCoinsResponse> {
  return callEndpoint(addCoinsEndpoint, { body });
}

/**
 * The member's selected character, read afresh when a round starts (it may have changed in the
 * shop since). Anything unexpected falls back to the default worker rather than block the game.
 */
export async function loadSelectedCharacter(queryClient: QueryClient): Promise<CharacterKey> {
  try {
    const profile = await queryClient.fetchQuery({ ...userProfileQuery, staleTime: 0 });
    return profile.selectedCharacterKey;
  } catch {
    return DEFAULT_CHARACTER_KEY;
  }
}
