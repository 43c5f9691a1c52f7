import { authPaths } from '#shared/api/paths.ts';
import { useMutation } from '@tanstack/react-query';
import { authResponseSchema, type LoginBody, type RegisterBody } from '#shared/api/auth.ts';
import { apiJson } from '#client/lib/api-client.ts';
import { useSetSessionUser } from '#client/lib/session.ts';

export function useLogin() {
  const setSessionUser = useSetSessionUser();
  return useMutation({
    mutationFn: (body: LoginBody) => apiJson('POST', authPaths.login, authResponseSchema, body),
    onSuccess: ({ user }) => setSessionUser(user),
  });
}

export function useRegister() {
  const setSessionUser = useSetSessionUser();
  return useMutation({
    mutationFn: (body: RegisterBody) => apiJson('POST', authPaths.register, authResponseSchema, body),
    onSuccess: ({ user }) => setSessionUser(user),
  });
}
