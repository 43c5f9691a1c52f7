/**
 * Every API route's path, in one place: the server registers these patterns, the client and the
 * tests fill them (`pathTo`). Kept free of zod so first-load client code can name routes.
 */
export const authPaths = {
  me: '/api/auth/me',
  login: '/api/auth/login',
  register: '/api/auth/register',
  logout: '/api/auth/logout',
  csrfToken: '/api/csrf-token',
} as const;

export const sitePaths = {
  time: '/api/time',
} as const;

export const shopPaths = {
  profile: '/api/user-profile',
  characters: '/api/user-characters',
  purchase: '/api/characters/:key/purchase',
  select: '/api/characters/:key/select',
} as const;

export const gamePaths = {
  runs: '/api/game-runs',
  scores: '/api/game-scores',
  coins: '/api/coins/add',
  leaderboard: '/api/leaderboard',
  winners: '/api/giveaway-winners',
  /** A running round's progress report (docs/decisions/012). */
  progress: '/api/game-runs/:runId/progress',
  /** The public replay of a leaderboard entry's run. */
  replay: '/api/leaderboard/:entryId/replay',
} as const;

export const walletPaths = {
  /** GET: the member's linked wallet. */
  wallet: '/api/wallet',
  /** POST: a Sign In With Solana message's fields, with a fresh single-use nonce. */
  challenge: '/api/wallet/challenge',
  /** POST: the signed message; links (or replaces) the member's wallet. */
  link: '/api/wallet/link',
} as const;

export const memePaths = {
  list: '/api/memes',
  create: '/api/memes',
  vote: '/api/memes/:id/vote',
  one: '/api/memes/:id',
  report: '/api/memes/:id/report',
  /** The meme's own page (not an API route): what Share copies, what a link preview shows. */
  page: '/memes/:id',
  uploadTarget: '/api/objects/upload',
  memeImages: '/api/meme-images',
} as const;

/** A suspended member's appeal (docs/decisions/022-operator-console.md). */
export const appealPaths = {
  /** POST: the signed-in member appeals their current suspension, once. */
  appeal: '/api/suspension/appeal',
  /** POST: the member has been shown the decision on their appeal. */
  seen: '/api/suspension/appeal/:id/seen',
} as const;

export const objectPaths = {
  /** The local store's signed upload URLs (`PUT /api/uploads/<token>`). */
  localUploadPrefix: '/api/uploads/',
} as const;

type ParamNames<P extends string> = P extends `${string}:${infer Name}/${infer Rest}`
  ? Name | ParamNames<`/${Rest}`>
  : P extends `${string}:${infer Name}`
    ? Name
    : never;

/** A route pattern with its `:name` parts filled in (each one URL-encoded). */
export function pathTo<P extends string>(
  pattern: P,
  params: Record<ParamNames<P>, string | number>,
): string {
  return pattern.replace(/:(\w+)/g, (_, name: string) =>
    encodeURIComponent(String((params as Record<string, string | number>)[name])),
  );
}

/** The page address anyone can open to watch an entry's replay (a hash on `/` opens the viewer). */
export const replayPageAddress = (entryId: number) => `/#replay-${entryId}`;
