import { z } from 'zod';
import { HOLDER_TIERS } from '#shared/holders.ts';
import { DISPLAYABLE_TEXT, INVISIBLE_CHARACTERS } from './text.ts';
import { MAX_INPUTS, MAX_STEPS } from '#shared/game/constants.ts';
import { MAX_JUMPS_PER_REPORT } from '#shared/game/pacing.ts';
import { gamePaths, pathTo } from './paths.ts';
import { defineEndpoint, endpointGroup } from './endpoint.ts';
import type { ErrorCode } from './error-codes.ts';

/** Filled paths of the two game routes with a parameter. */
export const progressPath = (runId: string) => pathTo(gamePaths.progress, { runId });
export const replayPath = (entryId: number) => pathTo(gamePaths.replay, { entryId });

export const PLAYER_NAME_MAX = 32;
export const LEADERBOARD_DEFAULT_LIMIT = 5;
export const LEADERBOARD_MAX_LIMIT = 50;
export const WINNERS_LIMIT = 10;

/** 128 random bits, base64url: the run id is also the bearer secret of one round. */
export const runIdSchema = z
  .string({ error: 'runId is required' })
  .regex(/^[A-Za-z0-9_-]{22}$/, 'runId must be the id given by POST /api/game-runs');

export const gameRunResponseSchema = z.object({
  runId: runIdSchema,
  /** Unsigned 32-bit seed of the shared engine's PRNG. */
  seed: z.number().int().min(0).max(0xffff_ffff),
  /** Server time (epoch ms) the round begins running: its issue plus the countdown. */
  startsAt: z.number().int().nonnegative(),
});
export type GameRunResponse = z.infer<typeof gameRunResponseSchema>;

/**
 * Step numbers at which the player jumped, strictly increasing (simulate checks the order; the
 * schema only bounds the size so a replay stays cheap).
 */
export const inputsSchema = z
  .array(z.number({ error: 'inputs must be step numbers' }).int().min(0).max(MAX_STEPS), {
    error: 'inputs must be an array of step numbers',
  })
  .max(MAX_INPUTS, `At most ${MAX_INPUTS} jumps are accepted`);

const count = (name: string) =>
  z
    .number({ error: `${name} must be a number` })
    .int(`${name} must be a whole number`)
    .min(0, `${name} must not be negative`)
    .max(1_000_000_000, `${name} is out of range`);

export const playerNameSchema = z
  .string({ error: 'playerName is required' })
  .trim()
  .min(1, 'playerName is required')
  .max(PLAYER_NAME_MAX, `playerName must be at most ${PLAYER_NAME_MAX} characters`)
  .regex(DISPLAYABLE_TEXT, 'playerName contains characters that are not allowed')
  .refine(
    (name) => !INVISIBLE_CHARACTERS.test(name),
    'playerName contains characters that are not allowed',
  );

/** A score's payload: the figures, the run it belongs to and its jump log (decision 006). */
export const submitScoreBodySchema = z.object({
  playerName: playerNameSchema,
  score: count('score'),
  level: count('level'),
  tasksCompleted: count('tasksCompleted'),
  powerUpsCollected: count('powerUpsCollected'),
  /** Whole seconds of flight. */
  gameTime: count('gameTime'),
  runId: runIdSchema,
  inputs: inputsSchema,
});
export type SubmitScoreBody = z.infer<typeof submitScoreBodySchema>;

export const leaderboardEntrySchema = z.object({
  id: z.number().int().positive(),
  playerName: z.string(),
  score: z.number().int().nonnegative(),
  level: z.number().int().positive(),
  tasksCompleted: z.number().int().nonnegative(),
  createdAt: z.iso.datetime(),
  /** On the board, a member's entry: the name is their username, and their page is /u/<name>. */
  member: z.literal(true).optional(),
  /** On the board, the holder tier the member's proven wallet holds now. */
  holder: z.enum(HOLDER_TIERS).optional(),
});
export type LeaderboardEntry = z.infer<typeof leaderboardEntrySchema>;

export const submitScoreResponseSchema = z.object({ entry: leaderboardEntrySchema });
export type SubmitScoreResponse = z.infer<typeof submitScoreResponseSchema>;

export const addCoinsBodySchema = z.object({
  amount: z
    .number({ error: 'amount must be a number' })
    .int('amount must be a whole number')
    .min(1, 'amount must be at least 1')
    .max(1_000_000, 'amount is out of range'),
  runId: runIdSchema,
  /** The run's jump log, for when the score was not submitted first (it is then replayed here). */
  inputs: inputsSchema.optional(),
});
export type AddCoinsBody = z.infer<typeof addCoinsBodySchema>;

export const addCoinsResponseSchema = z.object({
  coinsAdded: z.number().int().positive(),
  balance: z.number().int().nonnegative(),
});
export type AddCoinsResponse = z.infer<typeof addCoinsResponseSchema>;

const leaderboardLimitMessage = `limit must be a number from 1 to ${LEADERBOARD_MAX_LIMIT}`;
export const leaderboardQuerySchema = z.object({
  limit: z.coerce
    .number({ error: leaderboardLimitMessage })
    .int(leaderboardLimitMessage)
    .min(1, leaderboardLimitMessage)
    .max(LEADERBOARD_MAX_LIMIT, leaderboardLimitMessage)
    .default(LEADERBOARD_DEFAULT_LIMIT),
});

export const leaderboardResponseSchema = z.array(leaderboardEntrySchema);

export const weekIdSchema = z
  .string()
  .regex(/^\d{4}-W\d{2}$/, 'week must be an ISO week such as 2026-W47');

export const giveawayWinnerSchema = z.object({
  id: z.number().int().positive(),
  /** ISO week of the leaderboard that was won, e.g. "2026-W47". */
  week: weekIdSchema,
  playerName: z.string(),
  prize: z.string(),
  /** The member's proven wallet the prize was paid to (null for payments recorded before). */
  wallet: z.string().nullable(),
  /** Public proof of payment (a blockchain explorer link). */
  txUrl: z.url(),
  paidAt: z.iso.datetime(),
  /**
   * What the site verified at finalized (docs/decisions/023-prize-paid-on-chain.md), so anyone
   * can check it again against any RPC: the transaction, its slot, the lamports the recipient
   * received and the recipient.
   */
  verified: z.literal(true),
  signature: z.string(),
  slot: z.string(),
  amount: z.string(),
  recipient: z.string(),
});
export type GiveawayWinner = z.infer<typeof giveawayWinnerSchema>;

export const giveawayWinnersResponseSchema = z.array(giveawayWinnerSchema);

export const progressParamsSchema = z.object({ runId: runIdSchema });

/** While a round runs: the step reached and the jumps since the last acknowledged report. */
export const progressBodySchema = z.object({
  step: z
    .number({ error: 'step must be a step number' })
    .int('step must be a whole number')
    .min(0, 'step must not be negative')
    .max(MAX_STEPS, `step must be at most ${MAX_STEPS}`),
  jumps: inputsSchema.max(
    MAX_JUMPS_PER_REPORT,
    `At most ${MAX_JUMPS_PER_REPORT} jumps are accepted in one report`,
  ),
});
export type ProgressBody = z.infer<typeof progressBodySchema>;

export const progressResponseSchema = z.object({
  /** The step the server now holds for this run (the client reports from there). */
  step: z.number().int().nonnegative(),
});
export type ProgressResponse = z.infer<typeof progressResponseSchema>;

export const replayParamsSchema = z.object({
  entryId: z.coerce
    .number({ error: 'entryId must be a leaderboard entry id' })
    .int('entryId must be a leaderboard entry id')
    .positive('entryId must be a leaderboard entry id')
    .max(2 ** 31 - 1, 'entryId must be a leaderboard entry id'),
});

export const runStatisticsSchema = z.object({
  jumps: z.number().int().nonnegative(),
  jumpIntervalMedianMs: z.number(),
  jumpIntervalCv: z.number(),
  aimSpreadPx: z.number(),
  edgeMarginMinPx: z.number(),
  edgeMarginMedianPx: z.number(),
  reactionMedianMs: z.number(),
  fastReactionShare: z.number(),
  topSpeed: z.number(),
});

/** Everything the viewer needs to replay a ranked run, and the figures to show beside it. */
export const replayResponseSchema = z.object({
  entryId: z.number().int().positive(),
  /** An admin's public reason when the run was disqualified (it has left the weekly board). */
  disqualified: z.string().nullable().optional(),
  playerName: z.string(),
  character: z.string(),
  seed: z.number().int().min(0).max(0xffff_ffff),
  inputs: z.array(z.number().int().nonnegative()),
  score: z.number().int().nonnegative(),
  level: z.number().int().positive(),
  steps: z.number().int().nonnegative(),
  coins: z.number().int().nonnegative(),
  obstaclesPassed: z.number().int().nonnegative(),
  gameTime: z.number().int().nonnegative(),
  createdAt: z.iso.datetime(),
  statistics: runStatisticsSchema.nullable(),
  signs: z.array(z.object({ key: z.string(), label: z.string() })),
});
export type ReplayResponse = z.infer<typeof replayResponseSchema>;

/** A run's refusals once it is named: unknown, expired, refused earlier (its stored code). */
const RUN_REFUSALS = [
  'RUN_UNKNOWN',
  'RUN_EXPIRED',
  'RUN_REFUSED',
  'RUN_AHEAD',
  'RUN_BEHIND',
  'RUN_SILENT',
  'RUN_TOO_MANY_JUMPS',
  'RUN_INCONSISTENT',
  'RUN_NOT_PACED',
  'RUN_INVALID',
] as const satisfies readonly ErrorCode[];

/** A round, from its start to its score: anyone with the site's cookies plays. */
const playing = endpointGroup({ tag: 'game', access: 'visitor', refuses: { suspended: true } });
/** The week's board and its replays: public. */
const board = endpointGroup({ tag: 'game', access: 'public' });

export const issueRunEndpoint = defineEndpoint(playing, {
  method: 'POST',
  path: gamePaths.runs,
  id: 'startGameRun',
  summary: "Start a round: the run's id, its seed and when it starts (docs/decisions/012)",
  status: 201,
  response: gameRunResponseSchema,
  errors: { 429: ['RATE_LIMITED', 'RUNS_OPEN'] },
});

export const progressEndpoint = defineEndpoint(playing, {
  method: 'POST',
  path: gamePaths.progress,
  id: 'reportGameProgress',
  summary: "A running round's progress: the step reached and the jumps since the last report",
  params: progressParamsSchema,
  body: progressBodySchema,
  response: progressResponseSchema,
  errors: {
    403: ['RUN_NOT_YOURS'],
    409: ['RUN_BUSY'],
    422: [...RUN_REFUSALS, 'RUN_USED'],
    429: ['RATE_LIMITED'],
  },
});

/** The spec's client sends a score without a CSRF token (the origin check still holds). */
export const submitScoreEndpoint = defineEndpoint(playing, {
  method: 'POST',
  path: gamePaths.scores,
  id: 'submitScore',
  summary: "Submit a finished run's jumps; the server replays them and ranks the score",
  csrfExempt: true,
  body: submitScoreBodySchema,
  status: 201,
  response: submitScoreResponseSchema,
  errors: {
    403: ['RUN_NOT_YOURS'],
    422: [...RUN_REFUSALS, 'RUN_USED', 'RUN_MISMATCH', 'SCORE_MISMATCH', 'NAME_TAKEN'],
    429: ['RATE_LIMITED'],
  },
});

export const addCoinsEndpoint = defineEndpoint({
  method: 'POST',
  path: gamePaths.coins,
  id: 'saveGameCoins',
  summary: "Credit a member's run's coins to their balance, once per run",
  tag: 'game',
  access: 'member',
  signIn: 'Please log in to save your coins.',
  refuses: { suspended: true },
  body: addCoinsBodySchema,
  response: addCoinsResponseSchema,
  errors: {
    403: ['RUN_NOT_YOURS'],
    409: ['ALREADY_CREDITED'],
    422: [
      ...RUN_REFUSALS,
      'RUN_MISMATCH',
      'RUN_NOT_VERIFIED',
      'COINS_ALREADY_SAVED',
      'COINS_MISMATCH',
      'RUN_OVERLAPS',
    ],
    429: ['RATE_LIMITED'],
  },
});

export const leaderboardEndpoint = defineEndpoint(board, {
  method: 'GET',
  path: gamePaths.leaderboard,
  id: 'getLeaderboard',
  summary: "This week's standings, best score first",
  query: leaderboardQuerySchema,
  response: leaderboardResponseSchema,
});

export const replayEndpoint = defineEndpoint(board, {
  method: 'GET',
  path: gamePaths.replay,
  id: 'getReplay',
  summary: "A leaderboard entry's run, to watch again: its seed, jumps and statistics",
  params: replayParamsSchema,
  response: replayResponseSchema,
  errors: { 404: ['ENTRY_UNKNOWN'] },
});

/** Read by the landing page's Recent Winners through the query client's default (no zod). */
export const winnersEndpoint = defineEndpoint({
  method: 'GET',
  path: gamePaths.winners,
  id: 'listGiveawayWinners',
  summary: "Every paid week's winner, newest first",
  tag: 'prize',
  access: 'public',
  response: giveawayWinnersResponseSchema,
});
