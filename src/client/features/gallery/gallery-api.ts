import { memePaths } from '#shared/api/paths.ts';
import {
  useInfiniteQuery,
  useMutation,
  useQuery,
  useQueryClient,
  type InfiniteData,
  type QueryClient,
} from '@tanstack/react-query';
import { ZodError } from 'zod';
import {
  createMemeEndpoint,
  getMemeEndpoint,
  listMemesEndpoint,
  memeImageEndpoint,
  nextLink,
  reportMemeEndpoint,
  uploadTargetEndpoint,
  voteEndpoint,
  type CreateMemeBody,
  type Meme,
  type MemeSort,
  type ReportReason,
  type VoteResponse,
  type VoteType,
} from '#shared/api/memes.ts';
import type { CategoryFilter } from '#shared/categories.ts';
import { ApiError, apiGetWithHeaders } from '#client/lib/api-client.ts';
import { callEndpoint, endpointUrl } from '#client/lib/api-call.ts';

/** Every gallery list shares this root, so one invalidation refreshes them all. */
export const memesQueryRoot = [memePaths.list] as const;

/** Per viewer too: a member's list carries their own votes, a visitor's theirs. */
const memesQueryKey = (category: CategoryFilter, sort: MemeSort, viewer: number | null) =>
  [...memesQueryRoot, category, sort, viewer ?? 'visitor'] as const;

/** One page: the memes, and the next page's address from the Link header (null on the last). */
export interface MemesPage {
  memes: Meme[];
  next: string | null;
}

/** The first page's address; later pages' come from the server. */
function firstPageUrl(category: CategoryFilter, sort: MemeSort): string {
  return endpointUrl(listMemesEndpoint, {
    query: {
      ...(category !== 'all' && { category }),
      ...(sort !== 'new' && { sort }),
    },
  });
}

/** A page by its address (the first page's, or a Link header's), read as listMemesEndpoint's. */
async function fetchMemesPage(url: string): Promise<MemesPage> {
  const { data, headers } = await apiGetWithHeaders(url, listMemesEndpoint.response);
  return { memes: data, next: nextLink(headers.get('link')) };
}

export function useMemes(category: CategoryFilter, sort: MemeSort, viewer: number | null) {
  return useInfiniteQuery({
    queryKey: memesQueryKey(category, sort, viewer),
    queryFn: ({ pageParam }) => fetchMemesPage(pageParam),
    initialPageParam: firstPageUrl(category, sort),
    getNextPageParam: (last) => last.next,
  });
}

/** The meme of a permalink page; per viewer, for their own vote. */
const memeQueryKey = (id: number, viewer: number | null) =>
  [...memesQueryRoot, 'one', id, viewer ?? 'visitor'] as const;

export function useMeme(id: number, viewer: number | null) {
  return useQuery({
    queryKey: memeQueryKey(id, viewer),
    queryFn: () => callEndpoint(getMemeEndpoint, { params: { id } }),
    // A hidden or deleted meme is a 404: asking again will not change that.
    retry: (count, error) => !(error instanceof ApiError && error.status === 404) && count < 2,
  });
}

export function useReport() {
  return useMutation({
    mutationFn: ({ memeId, reason }: { memeId: number; reason: ReportReason }) =>
      callEndpoint(reportMemeEndpoint, { params: { id: memeId }, body: { reason } }),
  });
}

/** Writes a vote's answer into every cached page, and the permalink page, showing that meme. */
function applyVote(queryClient: QueryClient, memeId: number, result: VoteResponse): void {
  queryClient.setQueriesData<InfiniteData<MemesPage> | Meme>(
    { queryKey: memesQueryRoot },
    (data) => {
      if (!data) return data;
      if (!('pages' in data)) return data.id === memeId ? { ...data, ...result } : data;
      return {
        ...data,
        pages: data.pages.map((page) => ({
          ...page,
          memes: page.memes.map((m) => (m.id === memeId ? { ...m, ...result } : m)),
        })),
      };
    },
  );
}

export function useVote() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ memeId, voteType }: { memeId: number; voteType: VoteType }) =>
      callEndpoint(voteEndpoint, { params: { id: memeId }, body: { voteType } }),
    onSuccess: (result, { memeId }) => applyVote(queryClient, memeId, result),
  });
}

export function useCreateMeme() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: CreateMemeBody) => callEndpoint(createMemeEndpoint, { body }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: memesQueryRoot }),
  });
}

export async function requestUploadURL(): Promise<string> {
  return (await callEndpoint(uploadTargetEndpoint)).uploadURL;
}

/** The answer must carry objectPath (gallery.spec.ts: "no object path"). */
const NO_OBJECT_PATH = 'No object path returned from server';

export async function processUploadedImage(uploadURL: string): Promise<string> {
  const { objectPath } = await callEndpoint(memeImageEndpoint, {
    body: { imageUrl: uploadURL },
  }).catch((error: unknown) => {
    // An answer that is not JSON, or JSON without an objectPath.
    if (error instanceof SyntaxError || error instanceof ZodError) throw new Error(NO_OBJECT_PATH);
    throw error;
  });
  if (!objectPath) throw new Error(NO_OBJECT_PATH);
  return objectPath;
}
