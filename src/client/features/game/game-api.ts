import { gamePaths } from '#shared/api/paths.ts';
import type { QueryClient } from '@tanstack/react-query';
import {
  addCoinsResponseSchema,
  gameRunResponseSchema,
  progressPath,
  progressResponseSchema,
  submitScoreResponseSchema,
  type AddCoinsBody,
  type AddCoinsResponse,
  type GameRunResponse,
  type ProgressBody,
  type ProgressResponse,
  type SubmitScoreBody,
  type SubmitScoreResponse,
} from '#shared/api/game.ts';
import { DEFAULT_CHARACTER_KEY, type CharacterKey } from '#shared/characters.ts';
import { apiJson } from '#client/lib/api-request.ts';
import { userProfileQuery } from '#client/lib/query-keys.ts';

export function requestRun(): Promise<GameRunResponse> {
  return apiJson('POST', gamePaths.runs, gameRunResponseSchema);
}

export function reportProgress(runId: string, body: ProgressBody): Promise<ProgressResponse> {
  return apiJson('POST', progressPath(runId), progressResponseSchema, body);
}

export function submitScore(body: SubmitScoreBody): Promise<SubmitScoreResponse> {
  return apiJson('POST', gamePaths.scores, submitScoreResponseSchema, body);
}

export function addCoins(body: AddCoinsBody): Promise<AddCoinsResponse> {
  return apiJson('POST', gamePaths.coins, addCoinsResponseSchema, body);
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
