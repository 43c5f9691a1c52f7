import { describe, expect, it } from 'vitest';
import {
  chartEmbedUrl,
  defaultSite,
  isPreLaunch,
  launchLabel,
  launchTimeMs,
  siteTitle,
  socialCardLinks,
  socialLinksText,
} from './site.ts';
import { pageLabels } from './page-labels.ts';
import { nextWeekStartUtc, nextWeeklyOccurrence } from './time.ts';

const ADDRESS = '35vnoPAFp4nYp4HdS86YKCTP3ft2KGyPhNiqWBv6TWtj';

describe('defaultSite', () => {
  it('holds the facts of the spec', () => {
    expect(defaultSite).toMatchObject({
      mascot: 'Pudge',
      chain: 'Solana',
      weeklyChallenge: { prize: '1 SOL' },
      tokenomics: { totalSupply: 1_000_000_000, supplyLocked: true, liquidityLockYears: 2 },
    });
    // The title and the launch label (below) hold the brand, ticker, tagline and launch zone.
    expect(launchTimeMs(defaultSite)).toBe(Date.UTC(2025, 8, 30, 11));
    expect(defaultSite.contractAddress).toHaveLength(44);
    expect(defaultSite.tokenomics.distribution.map((s) => [s.label, s.percent])).toEqual([
      ['Community Pool', 70],
      ['Weekly Giveaways', 20],
      ['Development', 10],
    ]);
  });

  it('holds the giveaway on Sundays at 8 pm New York time, burning nothing yet', () => {
    const now = Date.UTC(2026, 0, 14, 12); // a Wednesday in winter (EST)
    expect(pageLabels(defaultSite, now).giveawaySchedule).toBe(
      'Sunday, 8:00 PM EST (New York time)',
    );
    expect(nextWeeklyOccurrence(now, defaultSite.giveaway.schedule)).toBe(Date.UTC(2026, 0, 19, 1));
    expect(defaultSite.giveaway.burn).toEqual({
      circulatingSupply: defaultSite.tokenomics.totalSupply,
      lastBurn: 0,
      totalBurned: 0,
    });
  });

  it('resets the weekly challenge when the UTC week starts (Monday 00:00)', () => {
    for (const now of [Date.UTC(2026, 0, 14, 12), Date.UTC(2026, 6, 5, 23, 59)]) {
      expect(nextWeeklyOccurrence(now, defaultSite.weeklyChallenge.resetsAt)).toBe(
        nextWeekStartUtc(now),
      );
    }
  });

  it('has ten roadmap steps, the first five completed', () => {
    expect(defaultSite.roadmap).toHaveLength(10);
    expect(defaultSite.roadmap.map((s) => s.completed)).toEqual([
      ...Array<boolean>(5).fill(true),
      ...Array<boolean>(5).fill(false),
    ]);
  });

  it('derives the chart, explorer, buy and trading links from the address', () => {
    expect(defaultSite.links.dexscreener).toBe(`https://dexscreener.com/solana/${ADDRESS}`);
    expect(defaultSite.links.solscan).toBe(`https://solscan.io/token/${ADDRESS}`);
    expect(defaultSite.links.buy).toContain(ADDRESS);
    expect(defaultSite.links.tradingSite).toContain(ADDRESS);
  });
});

describe('helpers', () => {
  it('builds the chart frame address with dark theme, trades and info hidden', () => {
    expect(chartEmbedUrl(ADDRESS)).toBe(
      `https://dexscreener.com/solana/${ADDRESS}?embed=1&theme=dark&trades=0&info=0`,
    );
  });

  it('is pre-launch only when the address is empty', () => {
    expect(isPreLaunch(defaultSite)).toBe(false);
    expect(isPreLaunch({ contractAddress: '' })).toBe(true);
  });

  it('gives the four social cards their links, and the text "Join All Platforms" copies', () => {
    const cards = socialCardLinks(defaultSite);
    expect(cards.map((c) => c.id)).toEqual(['x', 'telegram', 'discord', 'dexscreener']);
    expect(cards.map((c) => c.url)).toEqual([
      defaultSite.links.x,
      defaultSite.links.telegram,
      defaultSite.links.discord,
      defaultSite.links.dexscreener,
    ]);
    expect(socialLinksText(defaultSite).split('\n')).toEqual(
      cards.map((c) => `${c.name}: ${c.url}`),
    );
  });
});

describe('siteTitle', () => {
  it('names the brand, ticker and tagline', () => {
    expect(siteTitle(defaultSite)).toBe('Daily Grind ($GRIND) – Celebrating the Daily Grind');
  });
});

describe('launchLabel', () => {
  it('gives the launch in Sydney time with the zone name', () => {
    expect(launchLabel(defaultSite)).toBe('30 Sept 2025, 9:00 pm AEST (Sydney time)');
  });

  it('follows daylight saving and other zones', () => {
    expect(
      launchLabel({ launchAt: '2026-01-15T09:00:00Z', launchDisplayTimeZone: 'Australia/Sydney' }),
    ).toBe('15 Jan 2026, 8:00 pm AEDT (Sydney time)');
    expect(
      launchLabel({ launchAt: '2026-07-04T16:00:00Z', launchDisplayTimeZone: 'America/New_York' }),
    ).toBe('Jul 4, 2026, 12:00 PM EDT (New York time)');
  });
});
