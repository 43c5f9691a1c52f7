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

/** The operator console's page: here, free of zod, for the account menu's link to it. */
export const CONSOLE_PAGE = '/admin';

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

/**
 * Signing in with a wallet (docs/decisions/029-holders-at-home.md): the site's Sign In With
 * Solana message, checked as a wallet link is; a proven wallet signs its member in, an unknown
 * one may open an account.
 */
export const walletSignInPaths = {
  /** POST: the fields of a sign-in message, with a fresh single-use nonce. */
  challenge: '/api/auth/wallet/challenge',
  /** POST: the signed message; signs in the member who proved that wallet. */
  login: '/api/auth/wallet/login',
  /** POST: the signed message and a username; opens an account for an unknown wallet. */
  register: '/api/auth/wallet/register',
} as const;

/** The signed-in member's own account: settings, a password, their holder status. */
export const accountPaths = {
  account: '/api/account',
  settings: '/api/account/settings',
  password: '/api/account/password',
  /** POST: read the member's wallet balance of the site's token again, now. */
  holderCheck: '/api/account/holder-check',
} as const;

/** A member's public page (`/u/<username>`) and the read behind it. */
export const memberPaths = {
  member: '/api/members/:username',
  page: '/u/:username',
} as const;

/** Plain-text supply figures for listing sites (CoinGecko, CoinMarketCap). */
export const supplyPaths = {
  total: '/api/supply/total',
  circulating: '/api/supply/circulating',
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
  /** POST: the signed-in member appeals their current suspension, once; GET: whether they did. */
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
