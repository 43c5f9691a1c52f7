import { describe, expect, it } from 'vitest';
import { queryClient } from './query-client.tsx';

describe('query defaults', () => {
  it('never refetch on focus or interval, never stale, never retry', () => {
    const { queries, mutations } = queryClient.getDefaultOptions();
    expect(queries).toMatchObject({
      refetchInterval: false,
      refetchOnWindowFocus: false,
      staleTime: Infinity,
      retry: false,
    });
    expect(typeof queries?.queryFn).toBe('function');
    expect(mutations?.retry).toBe(false);
  });
});
