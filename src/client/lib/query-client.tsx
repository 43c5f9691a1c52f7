import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { ComponentType } from 'react';
import { getQueryFn } from './api-client.ts';
import { onUserChange } from './session.ts';

/**
 * The page's one query cache. It is not on the first load (the header reads the session from
 * its own store): it comes with the first part that loads on demand and reads through it.
 */
export const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      queryFn: getQueryFn({ on401: 'throw' }),
      refetchInterval: false,
      refetchOnWindowFocus: false,
      staleTime: Infinity,
      retry: false,
    },
    mutations: { retry: false },
  },
});

// When a member leaves (logout, or a check that finds the session gone), every cached answer was
// for them. The session lives elsewhere, so each part already shows a visitor's view; the
// mutation cache stays so callers hear of success.
onUserChange((before) => {
  if (before) queryClient.removeQueries();
});

/**
 * For the default export of a part that loads on demand and uses queries or mutations: the
 * shared cache around it, whichever such part comes first (nesting them is harmless).
 */
export function withQueryClient<P extends object>(Part: ComponentType<P>): ComponentType<P> {
  function WithQueryClient(props: P) {
    return (
      <QueryClientProvider client={queryClient}>
        <Part {...props} />
      </QueryClientProvider>
    );
  }
  WithQueryClient.displayName = `WithQueryClient(${Part.displayName ?? Part.name})`;
  return WithQueryClient;
}
