import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  authPaths,
  authResponseSchema,
  meResponseSchema,
  type LoginBody,
  type MeResponse,
  type RegisterBody,
  type User,
} from '#shared/api/auth.ts';
import { apiJson, apiRequest, getQueryFn, resetCsrfToken } from './api-client.ts';

export const sessionQueryKey = [authPaths.me] as const;

export interface Session {
  user: User | null;
  isAuthenticated: boolean;
  isLoading: boolean;
}

export function useSession(): Session {
  const { data, isLoading } = useQuery({
    queryKey: sessionQueryKey,
    queryFn: getQueryFn<MeResponse>({ on401: 'returnNull' }),
    select: (raw) => meResponseSchema.parse(raw ?? { user: null }),
    retry: false,
    refetchOnWindowFocus: false,
  });
  const user = data?.user ?? null;
  return { user, isAuthenticated: user !== null, isLoading };
}

export function useLogin() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: LoginBody) => apiJson('POST', authPaths.login, authResponseSchema, body),
    onSuccess: async ({ user }) => {
      queryClient.setQueryData(sessionQueryKey, { user });
      await queryClient.invalidateQueries({ queryKey: sessionQueryKey });
    },
  });
}

export function useRegister() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: RegisterBody) => apiJson('POST', authPaths.register, authResponseSchema, body),
    onSuccess: async ({ user }) => {
      queryClient.setQueryData(sessionQueryKey, { user });
      await queryClient.invalidateQueries({ queryKey: sessionQueryKey });
    },
  });
}

export function useLogout() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async () => (await apiRequest('POST', authPaths.logout)).json() as Promise<unknown>,
    onSuccess: async () => {
      // Every cached answer was for the member; the mutation cache stays so callers hear of success.
      queryClient.removeQueries();
      queryClient.setQueryData(sessionQueryKey, { user: null });
      // The next visitor on this tab starts from a fresh token.
      resetCsrfToken();
    },
  });
}
