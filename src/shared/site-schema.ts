import { z } from 'zod';
import { ADDRESS_LINKS, addressLinks, defaultSite, SOCIAL_IDS, type SiteConfig } from './site.ts';
import { SOLANA_CLUSTERS } from './solana-cluster.ts';

/**
 * The rules an operator's SITE_CONFIG file must follow, and the merge over `defaultSite`.
 * Kept apart from site.ts so the page's first load never pulls in zod (decision 002): the
 * server validates once at start and hands the page a finished config.
 */

const BASE58_ADDRESS = /^[1-9A-HJ-NP-Za-km-z]{32,44}$/;

// Only http(s) links: the page renders these as hrefs, so `javascript:` must never get through.
const webUrl = z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' });

function isKnownTimeZone(timeZone: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone });
    return true;
  } catch {
    return false;
  }
}

const timeZoneSchema = z
  .string()
  .refine(isKnownTimeZone, { error: 'must be an IANA time zone such as "America/New_York"' });

const weeklyTimeSchema = z.strictObject({
  /** 0 = Sunday ... 6 = Saturday, as Date#getDay. */
  weekday: z.int().min(0).max(6),
  hour: z.int().min(0).max(23),
  minute: z.int().min(0).max(59),
  timeZone: timeZoneSchema,
});

const linksSchema = z.strictObject({
  x: webUrl,
  telegram: webUrl,
  discord: webUrl,
  /** The chart-tracking site. */
  dexscreener: webUrl,
  /** The blockchain explorer. */
  solscan: webUrl,
  /** Where "Buy Now" goes. */
  buy: webUrl,
  /** The token-trading site the giveaway section sends people to. */
  tradingSite: webUrl,
});

const socialCardSchema = z.strictObject({
  id: z.enum(SOCIAL_IDS),
  name: z.string().min(1),
  description: z.string().min(1),
});

const distributionSliceSchema = z.strictObject({
  id: z.string().regex(/^[a-z][a-z0-9-]*$/, 'must be a lowercase slug'),
  label: z.string().min(1),
  percent: z.number().gt(0).max(100),
});

const roadmapStepSchema = z.strictObject({
  title: z.string().min(1),
  description: z.string().min(1),
  completed: z.boolean(),
});

/** A holder tier (shared/holders.ts counts whole tokens with up to 9 decimal places). */
const holderTierSchema = z.strictObject({
  label: z.string().min(1).max(24),
  minTokens: z
    .number()
    .positive()
    .max(1e15, 'must be at most 1e15 tokens')
    .refine((n) => /^\d+(\.\d{1,9})?$/.test(String(n)), { error: 'at most 9 decimal places' }),
});

export const siteConfigSchema = z.strictObject({
  brand: z.string().min(1),
  ticker: z.string().regex(/^\$[A-Z0-9]{2,12}$/, 'must look like "$GRIND"'),
  mascot: z.string().min(1),
  tagline: z.string().min(1),
  description: z.string().min(1),
  /** Empty string = pre-launch: no chart frame, no copy button, "coming soon" text. */
  contractAddress: z.union([
    z.literal(''),
    z.string().regex(BASE58_ADDRESS, 'must be a base58 Solana address or empty (pre-launch)'),
  ]),
  chain: z.string().min(1),
  links: linksSchema,
  /** ISO 8601 instant of the launch. */
  launchAt: z.iso.datetime({ offset: true, error: 'must be an ISO 8601 date-time' }),
  launchDisplayTimeZone: timeZoneSchema,
  giveaway: z.strictObject({
    schedule: weeklyTimeSchema,
    burn: z.strictObject({
      circulatingSupply: z.number().nonnegative(),
      lastBurn: z.number().nonnegative(),
      totalBurned: z.number().nonnegative(),
    }),
  }),
  weeklyChallenge: z.strictObject({
    prize: z.string().min(1),
    // Leaderboard weeks are ISO weeks keyed by weekStartUtc/isoWeekId, so the boundary is a
    // fact to display, not a setting: moving it here would desynchronise the server's weeks.
    resetsAt: z.strictObject({
      weekday: z.literal(1, { error: 'the weekly challenge resets on Monday (1)' }),
      hour: z.literal(0, { error: 'the weekly challenge resets at 00:00' }),
      minute: z.literal(0, { error: 'the weekly challenge resets at 00:00' }),
      timeZone: z.literal('UTC', { error: 'the weekly challenge resets in UTC' }),
    }),
  }),
  tokenomics: z.strictObject({
    totalSupply: z.number().positive(),
    supplyLocked: z.boolean(),
    liquidityLockYears: z.number().nonnegative(),
    weeklyBurns: z.boolean(),
    distribution: z
      .array(distributionSliceSchema)
      .min(1)
      .refine((slices) => Math.abs(slices.reduce((sum, s) => sum + s.percent, 0) - 100) < 1e-9, {
        error: 'percentages must add up to 100',
      }),
  }),
  roadmap: z.array(roadmapStepSchema).min(1),
  socialCards: z.array(socialCardSchema).min(1),
  // Set by the server from SOLANA_CLUSTER and SOLANA_RPC_URL; a SITE_CONFIG file cannot (below).
  solana: z.strictObject({
    cluster: z.enum(SOLANA_CLUSTERS),
    localRpcUrl: z.string().nullable(),
  }),
  holders: z
    .strictObject({
      tiers: z.strictObject({ holder: holderTierSchema, whale: holderTierSchema }),
      notCirculating: z
        .array(z.string().regex(BASE58_ADDRESS, 'must be a base58 Solana address'))
        .max(50, 'at most 50 wallets')
        .refine((list) => new Set(list).size === list.length, {
          error: 'a wallet is listed twice',
        }),
    })
    .refine((h) => h.tiers.whale.minTokens > h.tiers.holder.minTokens, {
      error: 'tiers.whale.minTokens must be more than tiers.holder.minTokens',
    }),
});

// SiteConfig is written out in zod-free site.ts for the first load; this fails to compile when the
// schema and that type stop describing the same shape.
type Exactly<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const _schemaIsSiteConfig: Exactly<z.output<typeof siteConfigSchema>, SiteConfig> = true;

export class SiteConfigError extends Error {
  readonly problems: string[];

  constructor(problems: string[]) {
    super(`Invalid site config:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'SiteConfigError';
    this.problems = problems;
  }
}

type PlainObject = Record<string, unknown>;

function isPlainObject(value: unknown): value is PlainObject {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const proto: unknown = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

/** Objects merge key by key; arrays and scalars replace (a roadmap is replaced, not spliced). */
function deepMerge(base: unknown, override: unknown): unknown {
  if (!isPlainObject(base) || !isPlainObject(override)) return override;
  const result: PlainObject = { ...base };
  for (const [key, value] of Object.entries(override)) {
    // defineProperty keeps a JSON "__proto__" key an ordinary (and then rejected) field
    // instead of letting it replace the prototype.
    Object.defineProperty(result, key, {
      value: deepMerge(base[key], value),
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return result;
}

function pathLabel(path: readonly PropertyKey[]): string {
  if (path.length === 0) return '(root)';
  return path
    .map((part, i) =>
      typeof part === 'number' ? `[${part}]` : `${i === 0 ? '' : '.'}${String(part)}`,
    )
    .join('');
}

/**
 * Validates an operator's overrides and deep-merges them over `defaultSite`.
 * Address-derived links (chart site, explorer, buy, trading site) follow an overridden
 * contract address unless the overrides set them explicitly.
 * Throws SiteConfigError naming each bad field, e.g. `links.x: must be an http(s) URL`.
 */
export function mergeSiteConfig(overrides: unknown): SiteConfig {
  if (overrides === undefined || overrides === null) return defaultSite;
  if (!isPlainObject(overrides)) {
    throw new SiteConfigError(['(root): must be a JSON object']);
  }
  if (Object.hasOwn(overrides, 'solana')) {
    // One setting, one place: the cluster decides what the server verifies, so it is the
    // environment's (SOLANA_CLUSTER), read with the RPC it must match.
    throw new SiteConfigError(['solana: set SOLANA_CLUSTER in the environment, not SITE_CONFIG']);
  }
  const merged = deepMerge(defaultSite, overrides) as PlainObject;

  const address = merged.contractAddress;
  const overriddenLinks = isPlainObject(overrides.links) ? overrides.links : {};
  if (typeof address === 'string' && isPlainObject(merged.links)) {
    const derived = addressLinks(address);
    const links: PlainObject = { ...merged.links };
    for (const key of ADDRESS_LINKS) {
      if (!Object.hasOwn(overriddenLinks, key)) links[key] = derived[key];
    }
    merged.links = links;
  }

  const result = siteConfigSchema.safeParse(merged);
  if (!result.success) {
    throw new SiteConfigError(
      result.error.issues.map((issue) => `${pathLabel(issue.path)}: ${issue.message}`),
    );
  }
  return result.data;
}
