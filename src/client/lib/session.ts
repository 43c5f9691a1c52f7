import { authPaths } from '#shared/api/paths.ts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { MeResponse, User } from '#shared/api/auth.ts';
import { apiRequest, getQueryFn, resetCsrfToken } from './api-client.ts';

export const sessionQueryKey = [authPaths.me] as const;

export interface Session {
  user: User | null;
  isAuthenticated: boolean;
  isLoading: boolean;
}

// The session check runs on every first load, so it reads the answer without zod.
function userFrom(raw: MeResponse | null | undefined): User | null {
  const user = raw?.user;
  return user && typeof user.id === 'number' && typeof user.username === 'string'
    ? { id: user.id, username: user.username }
    : null;
}

export function useSession(): Session {
  const { data, isLoading } = useQuery({
    queryKey: sessionQueryKey,
    queryFn: getQueryFn<MeResponse>({ on401: 'returnNull' }),
    select: userFrom,
    retry: false,
    refetchOnWindowFocus: false,
  });
  const user = data ?? null;
  return { user, isAuthenticated: user !== null, isLoading };
}

/** After login or register: the answer's user becomes the session, then it is re-checked. */
export function useSetSessionUser() {
  const queryClient = useQueryClient();
  return async (user: User) => {
    // The server bound the old token to the visitor's session and renewed its cookie.
    resetCsrfToken();
    queryClient.setQueryData(sessionQueryKey, { user });
    await queryClient.invalidateQueries({ queryKey: sessionQueryKey });
  };
}

export function useLogout() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async () => (await apiRequest('POST', authPaths.logout)).json() as Promise<unknown>,
    onSuccess: async () => {
      // The session first, on the query every part of the page watches, so each shows a
      // visitor's view at once. (Removing that query instead would leave its watchers holding
      // the member.) Then every other cached answer, which was for the member; the mutation
      // cache stays so callers hear of success.
      queryClient.setQueryData(sessionQueryKey, { user: null });
      queryClient.removeQueries({ predicate: (query) => query.queryKey[0] !== sessionQueryKey[0] });
      // The next visitor on this tab starts from a fresh token.
      resetCsrfToken();
    },
  });
}
