import { z } from 'zod';
import { HOLDER_TIERS } from '#shared/holders.ts';
import { STANDING_LEVELS } from '#shared/standing.ts';
import { newPasswordSchema } from './auth.ts';
import { defineEndpoint, endpointGroup } from './endpoint.ts';
import { weekIdSchema } from './game.ts';
import { memeSchema } from './memes.ts';
import { accountPaths, memberPaths } from './paths.ts';
import { characterKeySchema } from './shop.ts';
import { solanaAddressSchema } from './wallet.ts';

/** A holder tier as badges show it: its key and the site's name for it (SITE_CONFIG). */
export const holderBadgeSchema = z.object({
  tier: z.enum(HOLDER_TIERS),
  label: z.string(),
});
export type HolderBadge = z.infer<typeof holderBadgeSchema>;

/** A meme on its author's page: the gallery's card, without the caller's vote or the full image. */
export const memberMemeSchema = memeSchema.pick({
  id: true,
  title: true,
  category: true,
  thumbnailUrl: true,
  thumbnailWidth: true,
  thumbnailHeight: true,
  upvotes: true,
  downvotes: true,
  createdAt: true,
});

export const memberRunSchema = z.object({
  /** The leaderboard entry, whose replay anyone may watch (`replay`, a page address). */
  entryId: z.number().int().positive(),
  score: z.number().int().nonnegative(),
  level: z.number().int().positive(),
  week: weekIdSchema,
  createdAt: z.iso.datetime(),
  replay: z.string(),
});

export const memberPrizeSchema = z.object({
  week: weekIdSchema,
  prize: z.string(),
  /** The payment's transaction, verified at finalized (docs/decisions/023). */
  signature: z.string(),
  txUrl: z.url(),
  /** Lamports the member's wallet received, as the chain said. */
  amount: z.string(),
  paidAt: z.iso.datetime(),
});

/**
 * A member's public page (`/u/<username>`). A suspended or deleted member's page says so, and
 * nothing more.
 */
export const memberPageSchema = z.discriminatedUnion('status', [
  z.object({
    status: z.literal('active'),
    username: z.string(),
    memberSince: z.iso.datetime(),
    /** What they did here earns (issue 43's standing, shared/standing.ts). */
    standing: z.enum(STANDING_LEVELS),
    character: characterKeySchema,
    holder: holderBadgeSchema.nullable(),
    /** Only when the member chose to show it (account settings); pages show it shortened. */
    wallet: solanaAddressSchema.nullable(),
    memes: z.array(memberMemeSchema),
    bestRuns: z.array(memberRunSchema),
    prizeWeeks: z.array(memberPrizeSchema),
  }),
  z.object({ status: z.literal('suspended'), username: z.string() }),
  z.object({ status: z.literal('deleted'), username: z.string() }),
]);
export type MemberPage = z.infer<typeof memberPageSchema>;
export type ActiveMemberPage = Extract<MemberPage, { status: 'active' }>;

export const memberParamsSchema = z.object({
  username: z.string().min(1, 'Unknown member').max(64, 'Unknown member'),
});

export const memberPageEndpoint = defineEndpoint({
  method: 'GET',
  path: memberPaths.member,
  id: 'getMemberPage',
  summary:
    "A member's public page: character, member since, memes with votes, best runs, prize weeks won, holder badge",
  tag: 'members',
  access: 'public',
  params: memberParamsSchema,
  response: memberPageSchema,
  errors: { 404: ['MEMBER_UNKNOWN'] },
});

/** The member's last read of their wallet's balance of the site's token. */
export const holderStatusSchema = z.object({
  /** The wallet that was read (the member's proven wallet). */
  address: solanaAddressSchema,
  badge: holderBadgeSchema.nullable(),
  /** Whole tokens, exact, as text ("1,234.5"). */
  balance: z.string(),
  checkedAt: z.iso.datetime(),
  /** When the site reads it again by itself (about every 6 hours). */
  nextCheckAt: z.iso.datetime(),
});
export type HolderStatus = z.infer<typeof holderStatusSchema>;

export const accountSchema = z.object({
  username: z.string(),
  /** False for an account opened with a wallet alone, until a password is added. */
  hasPassword: z.boolean(),
  showWallet: z.boolean(),
  wallet: solanaAddressSchema.nullable(),
  /** Null until the member's current wallet has been read. */
  holder: holderStatusSchema.nullable(),
});
export type Account = z.infer<typeof accountSchema>;

/** The account's endpoints: a member's, and the 401 a visitor gets. */
const ownAccount = endpointGroup({
  tag: 'members',
  access: 'member',
  signIn: 'Please log in to see your account',
});

export const accountEndpoint = defineEndpoint(ownAccount, {
  method: 'GET',
  path: accountPaths.account,
  id: 'getAccount',
  summary: "The signed-in member's settings, wallet and holder status",
  response: accountSchema,
});

export const accountSettingsBodySchema = z.object({
  showWallet: z.boolean({ error: 'showWallet must be true or false' }),
});

export const accountSettingsEndpoint = defineEndpoint(ownAccount, {
  method: 'PUT',
  path: accountPaths.settings,
  id: 'updateAccountSettings',
  summary: 'Choose whether the member page shows the wallet (shortened)',
  body: accountSettingsBodySchema,
  response: accountSchema,
});

export const addPasswordBodySchema = z.object({ password: newPasswordSchema });

export const addPasswordEndpoint = defineEndpoint(ownAccount, {
  method: 'POST',
  path: accountPaths.password,
  id: 'addPassword',
  summary: 'Add a password to an account opened with a wallet alone',
  body: addPasswordBodySchema,
  response: accountSchema,
  errors: { 409: ['PASSWORD_ALREADY_SET'], 429: ['RATE_LIMITED'] },
});

export const holderCheckEndpoint = defineEndpoint(ownAccount, {
  method: 'POST',
  path: accountPaths.holderCheck,
  id: 'checkHolderNow',
  summary:
    "Read the member's proven wallet's balance of the site's token again now, at finalized, and answer the account",
  response: accountSchema,
  errors: {
    404: ['CHAIN_NOT_CONFIGURED', 'NO_CONTRACT_ADDRESS'],
    409: ['NO_WALLET'],
    429: ['RATE_LIMITED'],
    503: ['CHAIN_UNAVAILABLE', 'CHAIN_BAD_ANSWER'],
  },
});
