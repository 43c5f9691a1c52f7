import { memePaths, pathTo } from '#shared/api/paths.ts';
import {
  useInfiniteQuery,
  useMutation,
  useQuery,
  useQueryClient,
  type InfiniteData,
  type QueryClient,
} from '@tanstack/react-query';
import {
  createMemeResponseSchema,
  memeImageResponseSchema,
  memeSchema,
  memesListSchema,
  nextLink,
  reportResponseSchema,
  uploadTargetResponseSchema,
  voteEndpoint,
  type CreateMemeBody,
  type Meme,
  type MemeSort,
  type ReportReason,
  type VoteResponse,
  type VoteType,
} from '#shared/api/memes.ts';
import type { CategoryFilter } from '#shared/categories.ts';
import { ApiError, apiGet, apiGetWithHeaders } from '#client/lib/api-client.ts';
import { apiJson, apiRequest } from '#client/lib/api-request.ts';
import { callEndpoint } from '#client/lib/api-call.ts';

/** Every gallery list shares this root, so one invalidation refreshes them all. */
export const memesQueryRoot = [memePaths.list] as const;

/** Per viewer too: a member's list carries their own votes, a visitor's theirs. */
export const memesQueryKey = (category: CategoryFilter, sort: MemeSort, viewer: number | null) =>
  [...memesQueryRoot, category, sort, viewer ?? 'visitor'] as const;

/** One page: the memes, and the next page's address from the Link header (null on the last). */
export interface MemesPage {
  memes: Meme[];
  next: string | null;
}

/** The first page's address; later pages' come from the server. */
export function firstPageUrl(category: CategoryFilter, sort: MemeSort): string {
  const params = new URLSearchParams();
  if (category !== 'all') params.set('category', category);
  if (sort !== 'new') params.set('sort', sort);
  const query = params.toString();
  return query ? `${memePaths.list}?${query}` : memePaths.list;
}

export async function fetchMemesPage(url: string): Promise<MemesPage> {
  const { data, headers } = await apiGetWithHeaders(url, memesListSchema);
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
export const memeQueryKey = (id: number, viewer: number | null) =>
  [...memesQueryRoot, 'one', id, viewer ?? 'visitor'] as const;

export function useMeme(id: number, viewer: number | null) {
  return useQuery({
    queryKey: memeQueryKey(id, viewer),
    queryFn: () => apiGet(pathTo(memePaths.one, { id }), memeSchema),
    // A hidden or deleted meme is a 404: asking again will not change that.
    retry: (count, error) => !(error instanceof ApiError && error.status === 404) && count < 2,
  });
}

export function useReport() {
  return useMutation({
    mutationFn: ({ memeId, reason }: { memeId: number; reason: ReportReason }) =>
      apiJson('POST', pathTo(memePaths.report, { id: memeId }), reportResponseSchema, { reason }),
  });
}

/** Writes a vote's answer into every cached page, and the permalink page, showing that meme. */
export function applyVote(queryClient: QueryClient, memeId: number, result: VoteResponse): void {
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
    mutationFn: (body: CreateMemeBody) =>
      apiJson('POST', memePaths.create, createMemeResponseSchema, body),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: memesQueryRoot }),
  });
}

export async function requestUploadURL(): Promise<string> {
  return (await apiJson('POST', memePaths.uploadTarget, uploadTargetResponseSchema)).uploadURL;
}

/** Spec section 5: the answer must carry objectPath. */
export const NO_OBJECT_PATH = 'No object path returned from server';

export async function processUploadedImage(uploadURL: string): Promise<string> {
  const res = await apiRequest('PUT', memePaths.memeImages, { imageUrl: uploadURL });
  const parsed = memeImageResponseSchema.safeParse(await res.json().catch(() => null));
  if (!parsed.success || !parsed.data.objectPath) throw new Error(NO_OBJECT_PATH);
  return parsed.data.objectPath;
}
