import { useQuery } from '@tanstack/react-query';
import { operatorMeEndpoint } from '#shared/api/admin.ts';
import type { Endpoint, EndpointInput, EndpointResponse } from '#shared/api/endpoint.ts';
import { callEndpoint } from '#client/lib/api-call.ts';
import { ApiError } from '#client/lib/api-client.ts';

/** The refusal's code (`PASSKEY_REQUIRED`, `NOT_OPERATOR`...), when the server gave one. */
export function errorCode(error: unknown): string | undefined {
  if (!(error instanceof ApiError)) return undefined;
  try {
    const code = (JSON.parse(error.bodyText) as { code?: unknown }).code;
    return typeof code === 'string' ? code : undefined;
  } catch {
    return undefined;
  }
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

export function useOperator() {
  return useQuery({
    queryKey: consoleKeys.me,
    queryFn: () => callEndpoint(operatorMeEndpoint),
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
    queryFn: () =>
      (callEndpoint as (e: E, i?: EndpointInput<E>) => Promise<EndpointResponse<E>>)(
        endpoint,
        input,
      ),
    refetchOnWindowFocus: true,
    staleTime: 5_000,
    enabled,
  });
}
