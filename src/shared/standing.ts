import { DAY_MS } from './time.ts';

/**
 * Standing (issue 43, docs/decisions/027-raid-day.md): what a member may do follows from what
 * they did here, after Discourse's trust levels. One pure function decides the level; the server
 * reads the facts (memes/standing.ts) and enforces the allowance where each action is decided;
 * the client shows the same table (client/ui/standing-explainer.tsx).
 */
export const STANDING_LEVELS = ['new', 'member', 'trusted'] as const;
export type StandingLevel = (typeof STANDING_LEVELS)[number];

/** What the level is computed from. */
export interface StandingFacts {
  /** When the account was made (epoch ms). */
  createdAt: number;
  /** Rounds played to their end and accepted (replayed by the server). */
  finishedRuns: number;
  /** Memes of theirs still shown in the gallery. */
  memesUp: number;
  /** Reports against their memes that a moderator upheld (hid or deleted the meme). */
  upheldReports: number;
  /** A wallet proven by a signature (Sign In With Solana). */
  provenWallet: boolean;
}

export interface Standing {
  level: StandingLevel;
  provenWallet: boolean;
}

/** A member: a day old, and a finished run or a meme still up. */
export const MEMBER_AGE_MS = DAY_MS;
/** Trusted: a week old, several runs and memes kept, and no report upheld against them. */
const TRUSTED_AGE_MS = 7 * DAY_MS;
const TRUSTED_RUNS = 3;
const TRUSTED_MEMES = 3;

export function standingOf(facts: StandingFacts, now: number): Standing {
  const age = now - facts.createdAt;
  const level: StandingLevel =
    age >= TRUSTED_AGE_MS &&
    facts.finishedRuns >= TRUSTED_RUNS &&
    facts.memesUp >= TRUSTED_MEMES &&
    facts.upheldReports === 0
      ? 'trusted'
      : age >= MEMBER_AGE_MS && (facts.finishedRuns > 0 || facts.memesUp > 0)
        ? 'member'
        : 'new';
  return { level, provenWallet: facts.provenWallet };
}

export type AppealPlace = 'first' | 'in turn' | 'last';

export interface Allowance {
  /** Memes posted in any 24 hours. */
  uploadsPerDay: number;
  /** Whether their reports count towards hiding a meme (every report reaches the queue). */
  reportsCount: boolean;
  /** Whether a meme title may hold a link or a web address. */
  linksInTitles: boolean;
  /**
   * Where their appeal of a suspension stands in the moderators' queue: a raid's suspended
   * throwaways must not bury a member's appeal. During raid mode a new account cannot appeal.
   */
  appeals: AppealPlace;
  /** Whether they may post, vote, report and appeal while the site is in raid mode. */
  actsDuringRaid: boolean;
}

const ALLOWANCES: Record<StandingLevel, Allowance> = {
  new: {
    uploadsPerDay: 3,
    reportsCount: false,
    linksInTitles: false,
    appeals: 'last',
    actsDuringRaid: false,
  },
  member: {
    uploadsPerDay: 20,
    reportsCount: true,
    linksInTitles: false,
    appeals: 'in turn',
    actsDuringRaid: true,
  },
  trusted: {
    uploadsPerDay: 50,
    reportsCount: true,
    linksInTitles: true,
    appeals: 'first',
    actsDuringRaid: true,
  },
};

/** What a proven wallet adds (a wallet costs nothing to make, so it adds only what costs little). */
export const WALLET_EXTRA_UPLOADS = 10;

/**
 * What the standing allows. A proven wallet is a step up: more uploads for a member or a trusted
 * member, and a new account's appeal heard in turn (a wallet is an identity to weigh), never
 * more than that: it costs nothing to make one.
 */
export function allowanceOf(standing: Standing): Allowance {
  const base = ALLOWANCES[standing.level];
  if (!standing.provenWallet) return base;
  return standing.level === 'new'
    ? { ...base, appeals: 'in turn' }
    : { ...base, uploadsPerDay: base.uploadsPerDay + WALLET_EXTRA_UPLOADS };
}

/** The queue's order of appeals: first, in turn, last. */
export const APPEAL_ORDER: Record<AppealPlace, number> = { first: 0, 'in turn': 1, last: 2 };

export const STANDING_LABELS: Record<StandingLevel, string> = {
  new: 'New',
  member: 'Member',
  trusted: 'Trusted',
};

/** How each level is reached, in words, for the one place the UI explains it. */
export const STANDING_HOW: Record<StandingLevel, string> = {
  new: 'Every account starts here: under a day old, or nothing done yet.',
  member: 'A day old, with a round played to its end or a meme still in the gallery.',
  trusted: `A week old, ${TRUSTED_RUNS} rounds finished and ${TRUSTED_MEMES} memes still up, and no report against them upheld.`,
};

/**
 * Links and web addresses in a title: a scheme (`https://`), `www.`, or a dotted name ending in a
 * top-level domain that scams use (`grind-drop.xyz`, `t.me/x`, `claim.com`). A ticker (`$GRIND`),
 * a number (`1.5x`) or a file name (`meme.png`) is not a link.
 */
const TLDS =
  'com|net|org|io|xyz|me|gg|app|co|ru|info|biz|top|site|online|fun|club|link|live|pro|vip|cc|tk|to|ly|sh|so|ai|dev|fi|finance|exchange|money|shop|store|tech|lol|wtf|click|win|bet|cash|us|uk|de|cn|su|in|tv|ws|la|is|ms|gl';
const LINK = new RegExp(
  `\\b(?:https?:\\/\\/|www\\.)|\\b[a-z0-9-]+(?:\\.[a-z0-9-]+)*\\.(?:${TLDS})(?![a-z0-9-])`,
  'i',
);

export function hasLink(text: string): boolean {
  return LINK.test(text);
}
