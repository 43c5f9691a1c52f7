import { useMutation } from '@tanstack/react-query';
import {
  loginEndpoint,
  registerEndpoint,
  type LoginBody,
  type RegisterBody,
  type User,
} from '#shared/api/auth.ts';
import { callEndpoint } from '#client/lib/api-call.ts';
import { signUpProof } from '#client/lib/raid-proof.ts';
import { recheckSession, setSessionUser } from '#client/lib/session.ts';

/** The answer's user becomes the session at once, then the session is re-checked. */
function signedIn({ user }: { user: User }) {
  setSessionUser(user);
  return recheckSession();
}

export function useLogin() {
  return useMutation({
    mutationFn: (body: LoginBody) => callEndpoint(loginEndpoint, { body }),
    onSuccess: signedIn,
  });
}

export function useRegister() {
  return useMutation({
    // In raid mode the browser solves a proof of work first (client/lib/raid-proof.ts).
    mutationFn: async (body: RegisterBody) => {
      const altcha = await signUpProof();
      return callEndpoint(registerEndpoint, { body: altcha ? { ...body, altcha } : body });
    },
    onSuccess: signedIn,
  });
}
