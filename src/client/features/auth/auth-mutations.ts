import { authPaths } from '#shared/api/paths.ts';
import { useMutation } from '@tanstack/react-query';
import {
  authResponseSchema,
  type LoginBody,
  type RegisterBody,
  type User,
} from '#shared/api/auth.ts';
import { apiJson } from '#client/lib/api-request.ts';
import { recheckSession, setSessionUser } from '#client/lib/session.ts';

/** The answer's user becomes the session at once, then the session is re-checked. */
function signedIn({ user }: { user: User }) {
  setSessionUser(user);
  return recheckSession();
}

export function useLogin() {
  return useMutation({
    mutationFn: (body: LoginBody) => apiJson('POST', authPaths.login, authResponseSchema, body),
    onSuccess: signedIn,
  });
}

export function useRegister() {
  return useMutation({
    mutationFn: (body: RegisterBody) =>
      apiJson('POST', authPaths.register, authResponseSchema, body),
    onSuccess: signedIn,
  });
}
