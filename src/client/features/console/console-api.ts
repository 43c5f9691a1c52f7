import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { operatorMeEndpoint } from '#shared/api/console/passkeys.ts';
import type { Endpoint, EndpointInput, EndpointResponse } from '#shared/api/endpoint.ts';
import { callEndpoint } from '#client/lib/api-call.ts';
import { ApiError } from '#client/lib/api-client.ts';
import { recheckSession, useSession } from '#client/lib/session.ts';
import { toast } from '#client/lib/toast-store.ts';
import { waitForStepUp } from './step-up.ts';

/** The refusal's code (`PASSKEY_REQUIRED`, `NOT_OPERATOR`...), when the server gave one. */
export function errorCode(error: unknown): string | undefined {
  return error instanceof ApiError ? error.code : undefined;
}

/** What to show for a failed console call: the server's words, else the error's. */
export function errorText(error: unknown): string {
  if (error instanceof ApiError) return error.serverMessage ?? error.message;
  return error instanceof Error ? error.message : String(error);
}

export const consoleKeys = {
  me: ['console', 'me'] as const,
  all: ['console'] as const,
};

/** How often one call may ask for the passkey before it gives up (each ask is the operator's). */
const STEP_UPS_PER_CALL = 3;

/**
 * Every console call, read or write, goes through here. A refusal for want of a fresh passkey
 * sign-in (403 `PASSKEY_REQUIRED`) opens the passkey prompt over the page as it is, and the call
 * is made again once the operator has signed in (step-up.ts), so the action that asked finishes.
 * A 401 means the session is gone: the session is checked again, and the console shows the
 * sign-in screen.
 */
export async function consoleCall<E extends Endpoint>(
  endpoint: E,
  input?: EndpointInput<E>,
): Promise<EndpointResponse<E>> {
  const call = callEndpoint as (e: E, i?: EndpointInput<E>) => Promise<EndpointResponse<E>>;
  for (let asked = 0; ; asked++) {
    try {
      return await call(endpoint, input);
    } catch (error) {
      if (errorCode(error) === 'PASSKEY_REQUIRED' && asked < STEP_UPS_PER_CALL) {
        await waitForStepUp();
        continue;
      }
      if (error instanceof ApiError && error.status === 401) void recheckSession();
      throw error;
    }
  }
}

/**
 * Who is operating: asked for the member the session names, again whenever that changes (a
 * sign-in or a logout inside the console), and not at all for a visitor.
 */
export function useOperator() {
  const { user, isLoading } = useSession();
  return useQuery({
    queryKey: [...consoleKeys.me, user?.id ?? null],
    queryFn: () => consoleCall(operatorMeEndpoint),
    enabled: !isLoading && user !== null,
    retry: false,
  });
}

/** A console read as a query; refetched on focus, as the queue moves while one looks away. */
export function useConsoleQuery<E extends Endpoint>(
  key: readonly unknown[],
  endpoint: E,
  input?: EndpointInput<E>,
  enabled = true,
) {
  return useQuery<EndpointResponse<E>>({
    queryKey: ['console', ...key],
    queryFn: () => consoleCall(endpoint, input),
    refetchOnWindowFocus: true,
    staleTime: 5_000,
    enabled,
  });
}

/** A refused console call told in a toast: `title`, then the server's words. */
export function toastRefusal(title: string) {
  return (error: unknown) =>
    toast({ title, description: errorText(error), variant: 'destructive' });
}

/**
 * A console write. Once done, `onDone` runs (the toast, clearing the form) and every console read
 * is fetched again, as one decision moves the queue, the log and the member's page together; the
 * write stays pending until they are back. A refusal is a toast titled "Not done", unless
 * `onRefused` says otherwise.
 */
export function useConsoleAction<TResult, TInput = void>({
  call,
  onDone,
  onRefused = toastRefusal('Not done'),
}: {
  call: (input: TInput) => Promise<TResult>;
  onDone?: (result: TResult, input: TInput) => void;
  onRefused?: (error: unknown) => void;
}) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: call,
    onSuccess: (result, input) => {
      onDone?.(result, input);
      return queryClient.invalidateQueries({ queryKey: consoleKeys.all });
    },
    onError: onRefused,
  });
}
