import { memePaths, pathTo } from '#shared/api/paths.ts';
import {
  useInfiniteQuery,
  useMutation,
  useQueryClient,
  type InfiniteData,
  type QueryClient,
} from '@tanstack/react-query';
import {
  createMemeResponseSchema,
  memeImageResponseSchema,
  memesPageSchema,
  uploadTargetResponseSchema,
  voteResponseSchema,
  type CreateMemeBody,
  type MemesPage,
  type VoteResponse,
  type VoteType,
} from '#shared/api/memes.ts';
import type { CategoryFilter } from '#shared/categories.ts';
import { apiGet, apiJson, apiRequest } from '#client/lib/api-client.ts';

/** Every gallery list shares this root, so one invalidation refreshes them all. */
export const memesQueryRoot = [memePaths.list] as const;

/** Per viewer too: a member's list carries their own votes, a visitor's theirs. */
export const memesQueryKey = (category: CategoryFilter, viewer: number | null) =>
  [...memesQueryRoot, category, viewer ?? 'visitor'] as const;

export async function fetchMemesPage(
  category: CategoryFilter,
  before: string | null,
): Promise<MemesPage> {
  const params = new URLSearchParams();
  if (category !== 'all') params.set('category', category);
  if (before) params.set('before', before);
  const query = params.toString();
  return apiGet(query ? `${memePaths.list}?${query}` : memePaths.list, memesPageSchema);
}

export function useMemes(category: CategoryFilter, viewer: number | null) {
  return useInfiniteQuery({
    queryKey: memesQueryKey(category, viewer),
    queryFn: ({ pageParam }) => fetchMemesPage(category, pageParam),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.nextCursor,
  });
}

/** Writes a vote's answer into every cached page showing that meme. */
export function applyVote(queryClient: QueryClient, memeId: number, result: VoteResponse): void {
  queryClient.setQueriesData<InfiniteData<MemesPage>>({ queryKey: memesQueryRoot }, (data) =>
    data
      ? {
          ...data,
          pages: data.pages.map((page) => ({
            ...page,
            memes: page.memes.map((m) => (m.id === memeId ? { ...m, ...result } : m)),
          })),
        }
      : data,
  );
}

export function useVote() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ memeId, voteType }: { memeId: number; voteType: VoteType }) =>
      apiJson('POST', pathTo(memePaths.vote, { id: memeId }), voteResponseSchema, { voteType }),
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
