import type { SolanaCluster } from './solana-cluster.ts';
import { formatInZone, zoneCity } from './time.ts';

/**
 * The site's own facts: brand, token, links, schedules, tokenomics, roadmap.
 * `defaultSite` is what ships; an operator overrides any part of it with a JSON file (named by
 * SITE_CONFIG) that the server validates with `mergeSiteConfig` (site-schema.ts) at start.
 * This module holds data, its types and plain helpers only: it is on the page's first load, which
 * carries no zod (decision 002). site-schema.ts imports from here and checks at compile time that
 * its schema describes exactly `SiteConfig`, so the two cannot drift and nothing here imports it.
 */

export const SOCIAL_IDS = ['x', 'telegram', 'discord', 'dexscreener'] as const;
export type SocialId = (typeof SOCIAL_IDS)[number];

/** Links whose default follows the contract address unless the operator sets them. */
export const ADDRESS_LINKS = ['dexscreener', 'solscan', 'buy', 'tradingSite'] as const;
type AddressLink = (typeof ADDRESS_LINKS)[number];

/** A weekly moment in a named zone; weekday 0 = Sunday ... 6 = Saturday, as Date#getDay. */
interface WeeklyTime {
  weekday: number;
  hour: number;
  minute: number;
  /** An IANA time zone such as "America/New_York". */
  timeZone: string;
}

export interface SocialCard {
  id: SocialId;
  name: string;
  description: string;
}

export interface DistributionSlice {
  /** A lowercase slug. */
  id: string;
  label: string;
  percent: number;
}

interface RoadmapStep {
  title: string;
  description: string;
  completed: boolean;
}

/** A holder tier: its name on badges and the balance of the site's token it starts at. */
export interface HolderTierRule {
  label: string;
  /** Whole tokens (fractions allowed): a proven wallet holding at least this reaches the tier. */
  minTokens: number;
}

export interface SiteConfig {
  brand: string;
  /** Like "$GRIND". */
  ticker: string;
  mascot: string;
  tagline: string;
  description: string;
  /** Empty string = pre-launch: no chart frame, no copy button, "coming soon" text. */
  contractAddress: string;
  chain: string;
  links: {
    x: string;
    telegram: string;
    discord: string;
    /** The chart-tracking site. */
    dexscreener: string;
    /** The blockchain explorer. */
    solscan: string;
    /** Where "Buy Now" goes. */
    buy: string;
    /** The token-trading site the giveaway section sends people to. */
    tradingSite: string;
  };
  /** ISO 8601 instant of the launch. */
  launchAt: string;
  launchDisplayTimeZone: string;
  giveaway: {
    schedule: WeeklyTime;
    burn: { circulatingSupply: number; lastBurn: number; totalBurned: number };
  };
  weeklyChallenge: {
    prize: string;
    /** Leaderboard weeks are ISO weeks: Monday 00:00 UTC, a fact to display, not a setting. */
    resetsAt: { weekday: 1; hour: 0; minute: 0; timeZone: 'UTC' };
  };
  tokenomics: {
    totalSupply: number;
    supplyLocked: boolean;
    liquidityLockYears: number;
    weeklyBurns: boolean;
    /** Percentages add up to 100. */
    distribution: DistributionSlice[];
  };
  roadmap: RoadmapStep[];
  socialCards: SocialCard[];
  /**
   * The cluster payments and burns are verified on: SOLANA_CLUSTER, never the SITE_CONFIG file
   * (the server sets it at start). `localRpcUrl`: on localnet, the RPC an explorer link reads.
   */
  solana: { cluster: SolanaCluster; localRpcUrl: string | null };
  /**
   * Holder perks and the supply figures (docs/decisions/029-holders-at-home.md): the tiers a
   * member's proven wallet reaches by its balance of `contractAddress`'s token, and the wallets
   * (owners) whose balance is not circulating supply: treasury, team, locked liquidity.
   */
  holders: {
    tiers: { holder: HolderTierRule; whale: HolderTierRule };
    notCirculating: string[];
  };
}

function dexscreenerUrl(address: string): string {
  return address ? `https://dexscreener.com/solana/${address}` : 'https://dexscreener.com/solana';
}

function solscanTokenUrl(address: string): string {
  return address ? `https://solscan.io/token/${address}` : 'https://solscan.io';
}

function buyUrl(address: string): string {
  return address ? `https://jup.ag/swap/SOL-${address}` : 'https://jup.ag';
}

function tradingSiteUrl(address: string): string {
  return address ? `https://pump.fun/coin/${address}` : 'https://pump.fun';
}

export function addressLinks(address: string): Record<AddressLink, string> {
  return {
    dexscreener: dexscreenerUrl(address),
    solscan: solscanTokenUrl(address),
    buy: buyUrl(address),
    tradingSite: tradingSiteUrl(address),
  };
}

export function chartEmbedUrl(address: string): string {
  return `https://dexscreener.com/solana/${address}?embed=1&theme=dark&trades=0&info=0`;
}

export function isPreLaunch(site: Pick<SiteConfig, 'contractAddress'>): boolean {
  return site.contractAddress === '';
}

export function launchTimeMs(site: Pick<SiteConfig, 'launchAt'>): number {
  return Date.parse(site.launchAt);
}

/**
 * When the launch is, in its display zone with the zone's name, e.g.
 * "30 Sept 2025, 9:00 pm AEST (Sydney time)". Australian English names Australian zones
 * ("AEST"/"AEDT") where other locales print "GMT+10"; elsewhere US English names them best.
 */
export function launchLabel(site: Pick<SiteConfig, 'launchAt' | 'launchDisplayTimeZone'>): string {
  const zone = site.launchDisplayTimeZone;
  const locale = zone.startsWith('Australia/') ? 'en-AU' : 'en-US';
  return `${formatInZone(launchTimeMs(site), zone, locale)} (${zoneCity(zone)} time)`;
}

/** An example address; the README tells operators to replace it with their token's mint. */
const EXAMPLE_CONTRACT_ADDRESS = '35vnoPAFp4nYp4HdS86YKCTP3ft2KGyPhNiqWBv6TWtj';

export const defaultSite: SiteConfig = {
  brand: 'Daily Grind',
  ticker: '$GRIND',
  mascot: 'Pudge',
  tagline: 'Celebrating the Daily Grind',
  description:
    'Daily Grind ($GRIND) is a community token on Solana for everyone who shows up, clocks in ' +
    'and keeps going. Pudge, our coffee-powered mascot, cheers on the hard workers: weekly ' +
    'livestream giveaways, weekly token burns and a game where your grind earns coins.',
  contractAddress: EXAMPLE_CONTRACT_ADDRESS,
  chain: 'Solana',
  links: {
    x: 'https://x.com/dailygrindsol',
    telegram: 'https://t.me/dailygrindsol',
    discord: 'https://discord.gg/dailygrind',
    ...addressLinks(EXAMPLE_CONTRACT_ADDRESS),
  },
  launchAt: '2025-09-30T11:00:00Z',
  launchDisplayTimeZone: 'Australia/Sydney',
  giveaway: {
    schedule: { weekday: 0, hour: 20, minute: 0, timeZone: 'America/New_York' },
    burn: { circulatingSupply: 1_000_000_000, lastBurn: 0, totalBurned: 0 },
  },
  weeklyChallenge: {
    prize: '1 SOL',
    resetsAt: { weekday: 1, hour: 0, minute: 0, timeZone: 'UTC' },
  },
  tokenomics: {
    totalSupply: 1_000_000_000,
    supplyLocked: true,
    liquidityLockYears: 2,
    weeklyBurns: true,
    distribution: [
      { id: 'community', label: 'Community Pool', percent: 70 },
      { id: 'giveaways', label: 'Weekly Giveaways', percent: 20 },
      { id: 'development', label: 'Development', percent: 10 },
    ],
  },
  roadmap: [
    {
      title: 'Coin Idea',
      description: 'A token for everyone who clocks in and keeps going.',
      completed: true,
    },
    {
      title: 'Socials',
      description: 'X, Telegram and Discord opened for the community.',
      completed: true,
    },
    { title: 'Website', description: 'This site, the home of the grind.', completed: true },
    { title: 'Mascot', description: 'Pudge clocks in, coffee in hand.', completed: true },
    { title: 'Launch Coin', description: 'The coin goes live on Solana.', completed: true },
    { title: '50K Market Cap', description: 'The first milestone for the crew.', completed: false },
    {
      title: 'Buy on a DEX',
      description: 'Easy to buy on a decentralised exchange.',
      completed: false,
    },
    { title: '200K Market Cap', description: 'The next rung on the ladder.', completed: false },
    {
      title: 'First Giveaway',
      description: 'Our first weekly livestream giveaway.',
      completed: false,
    },
    {
      title: 'Keep Growing',
      description: 'Keep the community active and growing.',
      completed: false,
    },
  ],
  socialCards: [
    { id: 'x', name: 'X (Twitter)', description: 'Daily updates, memes and announcements.' },
    {
      id: 'telegram',
      name: 'Telegram',
      description: 'Chat with fellow grinders around the clock.',
    },
    { id: 'discord', name: 'Discord', description: 'Hang out, share wins and plan the next burn.' },
    { id: 'dexscreener', name: 'DexScreener', description: 'Track the live price chart.' },
  ],
  solana: { cluster: 'mainnet-beta', localRpcUrl: null },
  holders: {
    tiers: {
      holder: { label: 'Holder', minTokens: 1 },
      whale: { label: 'Whale', minTokens: 1_000_000 },
    },
    notCirculating: [],
  },
};

/** Static brand assets in public/; sizes are here so every <img> is sized (no layout shift). */
export const brandAssets = {
  mascot: { src: '/mascot.svg', width: 400, height: 440 },
  ogImage: { src: '/og-image.png', width: 1200, height: 630 },
  themeColor: '#0f172a',
  backgroundColor: '#0f172a',
} as const;

export function socialCardLinks(site: SiteConfig): Array<SocialCard & { url: string }> {
  return site.socialCards.map((card) => ({ ...card, url: site.links[card.id] }));
}

/** What "Join All Platforms" puts on the clipboard (and the "Social Links" toast shows). */
export function socialLinksText(site: SiteConfig): string {
  return socialCardLinks(site)
    .map((card) => `${card.name}: ${card.url}`)
    .join('\n');
}

/** The page title, as the browser tab and link previews show it. */
export function siteTitle(site: Pick<SiteConfig, 'brand' | 'ticker' | 'tagline'>): string {
  return `${site.brand} (${site.ticker}) – ${site.tagline}`;
}
