/**
 * Every `code` an error body may carry: one list, read by the server (HttpError), the client
 * (ApiError.code) and the OpenAPI document. Kept free of zod so first-load code can read it.
 * A new refusal adds its code here; the type checker then lets a route declare and throw it.
 */
export const ERROR_CODES = [
  // Generic refusals, also Fastify's own mapped by status (http/error-handler.ts).
  'BAD_REQUEST',
  'VALIDATION',
  'UNAUTHORIZED',
  'NOT_FOUND',
  'METHOD_NOT_ALLOWED',
  'REQUEST_TIMEOUT',
  'PAYLOAD_TOO_LARGE',
  'TOO_LARGE',
  'UNSUPPORTED_MEDIA_TYPE',
  'RATE_LIMITED',
  'UNAVAILABLE',
  /** The image pipeline is full on this node (uploads). */
  'BUSY',
  // Sessions, CSRF and origin.
  'CSRF',
  'CROSS_SITE',
  'INVALID_CREDENTIALS',
  /** Failed sign-ins to one account from everywhere passed its limit (auth/service.ts). */
  'SIGN_IN_PAUSED',
  'USERNAME_TAKEN',
  // Gallery and uploads.
  'ALREADY_REPORTED',
  'BAD_UPLOAD_URL',
  'CURSOR_EXPIRED',
  'DUPLICATE_MEME',
  'IMAGE_NOT_AVAILABLE',
  'MEME_UNDER_REVIEW',
  'NETWORK_VOTES_FULL',
  'UPLOAD_EXPIRED',
  'UPLOAD_FORBIDDEN',
  'UPLOAD_INTERRUPTED',
  'UPLOAD_MISSING',
  'UPLOAD_SLOTS_USED',
  'UPLOAD_USED',
  // Raid day (docs/decisions/027-raid-day.md): standing and raid mode.
  /** Raid mode: new accounts cannot post, vote or report, visitors cannot vote. */
  'RAID_MODE',
  /** Raid mode: a sign-up without a solved proof-of-work challenge. */
  'CHALLENGE_REQUIRED',
  /** A meme title with a link, from a standing that may not post links. */
  'LINKS_NOT_ALLOWED',
  // The image pipeline's refusals (uploads/image-processing.ts), lower case on the wire.
  'unsupported_image',
  'image_too_large',
  'corrupt_image',
  // Shop and coins.
  'ALREADY_CREDITED',
  'ALREADY_OWNED',
  'BAD_AMOUNT',
  'COINS_ALREADY_SAVED',
  'COINS_MISMATCH',
  'NOT_ENOUGH_COINS',
  'NOT_OWNED',
  'UNKNOWN_CHARACTER',
  // Game runs (docs/decisions/006, 012).
  'ENTRY_UNKNOWN',
  'RUN_AHEAD',
  'RUN_BEHIND',
  'RUN_BUSY',
  'RUN_EXPIRED',
  'RUN_INCONSISTENT',
  'RUN_INVALID',
  'RUN_MISMATCH',
  'RUN_NOT_PACED',
  'RUN_NOT_VERIFIED',
  'RUN_NOT_YOURS',
  'RUN_OVERLAPS',
  'RUN_REFUSED',
  'RUN_SILENT',
  'RUN_UNKNOWN',
  'RUN_USED',
  /** A visitor's score under a member's name. */
  'NAME_TAKEN',
  'SCORE_MISMATCH',
  'RUN_TOO_MANY_JUMPS',
  'RUNS_OPEN',
  'BAD_FORWARDED_PROTO',
  // Wallets (Sign In With Solana).
  'ALTERED_MESSAGE',
  'BAD_ADDRESS',
  'BAD_SIGNATURE',
  'NONCE_EXPIRED',
  'NONCE_USED',
  'NOT_SIWS',
  'UNKNOWN_NONCE',
  'WALLET_TAKEN',
  'WRONG_PASSWORD',
  'PRIZE_PAYMENT_PENDING',
  'WRONG_ADDRESS',
  'WRONG_DOMAIN',
  // Signing in with a wallet, member pages, holder perks (docs/decisions/029-holders-at-home.md).
  'WRONG_URI',
  'WRONG_CHAIN',
  /** A sign-in message issued later than the server's clock allows for (skew). */
  'NONCE_NOT_YET_VALID',
  /** No member has proven the wallet: the caller may open an account with it. */
  'WALLET_UNKNOWN',
  'PASSWORD_ALREADY_SET',
  /** A wallet-only account asked to confirm with a password it does not have. */
  'PASSWORD_NOT_SET',
  'MEMBER_UNKNOWN',
  'NO_WALLET',
  /** A holder character for a member whose proven wallet holds too little of the token. */
  'HOLDERS_ONLY',
  // The operator console (docs/decisions/022-operator-console.md).
  'NOT_OPERATOR',
  'ADMIN_ONLY',
  'RANK_PROTECTED',
  'PASSKEY_REQUIRED',
  'PASSKEY_HOST',
  /** PUBLIC_ORIGIN unset and the console opened at a host other than localhost. */
  'PASSKEY_NO_ORIGIN',
  'PASSKEY_INVALID',
  'SUSPENDED',
  'APPEAL_EXISTS',
  'APPEAL_DECIDED',
  'NOT_SUSPENDED',
  'REPLAY_NOT_WATCHED',
  'RUN_DISQUALIFIED',
  'PRIZE_REFUSED',
  // The live event stream (docs/decisions/021).
  'TOO_MANY_STREAMS',
  // Payments and burns verified on chain (docs/decisions/023-prize-paid-on-chain.md).
  'CHAIN_NOT_CONFIGURED',
  'CHAIN_UNAVAILABLE',
  /** The RPC answered more than the site reads, or in a shape it does not read. */
  'CHAIN_BAD_ANSWER',
  /** A payment prepared earlier could still land: no second one is prepared. */
  'PAYMENT_STILL_OPEN',
  'TX_BURN_ZERO',
  'TX_BURN_TOO_LARGE',
  'NO_CONTRACT_ADDRESS',
  'NO_PENDING_PAYMENT',
  'PRIZE_ALREADY_PAID',
  'PRIZE_NOT_APPROVED',
  'PRIZE_NOT_SOL',
  'TX_ALREADY_RECORDED',
  'TX_FAILED',
  'TX_NOT_A_BURN',
  'TX_NOT_FINALIZED',
  'TX_NOT_FOUND',
  'TX_NO_BLOCK_TIME',
  'TX_NO_MEMO',
  'TX_NO_REFERENCE',
  'TX_SHORT_AMOUNT',
  'TX_WRONG_MINT',
  'TX_WRONG_PAYER',
  'TX_WRONG_RECIPIENT',
] as const;

export type ErrorCode = (typeof ERROR_CODES)[number];

const KNOWN: ReadonlySet<string> = new Set(ERROR_CODES);
export const isErrorCode = (value: unknown): value is ErrorCode =>
  typeof value === 'string' && KNOWN.has(value);

/** The statuses an endpoint may refuse with; every one answers `{ message, code }` (errors.ts). */
export type ErrorStatus = 400 | 401 | 403 | 404 | 409 | 413 | 415 | 422 | 429 | 503;
