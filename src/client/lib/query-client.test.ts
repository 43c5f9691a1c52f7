import { describe, expect, it } from 'vitest';
import { createQueryClient } from './query-client.ts';

describe('query defaults', () => {
  it('never refetch on focus or interval, never stale, never retry', () => {
    const { queries, mutations } = createQueryClient().getDefaultOptions();
    expect(queries).toMatchObject({ refetchInterval: false, refetchOnWindowFocus: false, staleTime: Infinity, retry: false });
    expect(typeof queries?.queryFn).toBe('function');
    expect(mutations?.retry).toBe(false);
  });
});
