import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  ownedCharactersEndpoint,
  purchaseEndpoint,
  selectEndpoint,
  type OwnedCharacter,
  type PurchaseResponse,
  type UserProfile,
} from '#shared/api/shop.ts';
import { getCharacter, type CharacterKey } from '#shared/characters.ts';
import { callEndpoint } from '#client/lib/api-call.ts';
import { ApiError, errorMessage } from '#client/lib/api-client.ts';
import { appealActionFor } from '#client/lib/appeal-store.ts';
import {
  userCharactersQueryKey,
  userProfileQuery,
  userProfileQueryKey,
} from '#client/lib/query-keys.ts';
import { recheckSession } from '#client/lib/session.ts';
import { toast } from '#client/lib/toast-store.ts';

export function useUserProfile(enabled: boolean) {
  return useQuery({ ...userProfileQuery, enabled });
}

export function useOwnedCharacters(enabled: boolean) {
  return useQuery<OwnedCharacter[]>({
    queryKey: userCharactersQueryKey,
    queryFn: () => callEndpoint(ownedCharactersEndpoint),
    enabled,
  });
}

export const isUnauthorized = (error: unknown) => error instanceof ApiError && error.status === 401;

const FAILED_TITLES = { purchase: 'Purchase Failed', select: 'Selection Failed' } as const;

/**
 * Tells the member why buying or selecting failed. A 401 means the session ended: it is
 * re-checked, so the page shows the visitor's shop. Returns whether the server refused for
 * another reason (the member's view may then be out of date).
 */
function tellWriteFailed(error: Error, action: 'purchase' | 'select'): boolean {
  if (isUnauthorized(error)) {
    toast({
      title: 'Login Required',
      description: `Please log in to ${action} characters.`,
      variant: 'destructive',
    });
    void recheckSession();
    return false;
  }
  toast({
    title: FAILED_TITLES[action],
    description: errorMessage(error) ?? `Failed to ${action} character. Please try again.`,
    variant: 'destructive',
    action: appealActionFor(error),
  });
  return true;
}

export function usePurchaseCharacter() {
  const queryClient = useQueryClient();
  return useMutation<PurchaseResponse, Error, CharacterKey>({
    mutationFn: (key) => callEndpoint(purchaseEndpoint, { params: { key } }),
    onSuccess: (answer, key) => {
      // The answer is the new state: the balance and the cards change without another request.
      queryClient.setQueryData(userProfileQueryKey, answer.profile);
      queryClient.setQueryData(userCharactersQueryKey, answer.characters);
      toast({
        title: 'Character Purchased!',
        description: `${getCharacter(key).name} is yours. Select it to fly it in the game.`,
      });
    },
    onError: (error) => {
      if (!tellWriteFailed(error, 'purchase')) return;
      // Another tab or device may have spent coins or bought it already: show the real state.
      void queryClient.invalidateQueries({ queryKey: userProfileQueryKey });
      void queryClient.invalidateQueries({ queryKey: userCharactersQueryKey });
    },
  });
}

export function useSelectCharacter() {
  const queryClient = useQueryClient();
  return useMutation<UserProfile, Error, CharacterKey>({
    mutationFn: (key) => callEndpoint(selectEndpoint, { params: { key } }),
    onSuccess: (profile, key) => {
      queryClient.setQueryData(userProfileQueryKey, profile);
      toast({
        title: 'Character Selected!',
        description: `${getCharacter(key).name} will fly in your next game.`,
      });
    },
    onError: (error) => {
      if (tellWriteFailed(error, 'select')) {
        void queryClient.invalidateQueries({ queryKey: userCharactersQueryKey });
      }
    },
  });
}
