import { describe, expect, it } from 'vitest';
import { isPreLaunch, defaultSite } from './site.ts';
import { SiteConfigError, mergeSiteConfig, siteConfigSchema } from './site-schema.ts';
import { errorThrownBy } from '#test-support/thrown.ts';

const OTHER_ADDRESS = 'So11111111111111111111111111111111111111112';

const problemsOf = (overrides: unknown) =>
  errorThrownBy(() => mergeSiteConfig(overrides), SiteConfigError).problems;

describe('siteConfigSchema', () => {
  it('accepts the shipped defaults unchanged', () => {
    expect(siteConfigSchema.parse(defaultSite)).toEqual(defaultSite);
  });
});

describe('mergeSiteConfig', () => {
  it('returns the defaults when there are no overrides', () => {
    expect(mergeSiteConfig(undefined)).toEqual(defaultSite);
    expect(mergeSiteConfig(null)).toEqual(defaultSite);
    expect(mergeSiteConfig({})).toEqual(defaultSite);
  });

  it('deep-merges nested objects and keeps what is not overridden', () => {
    const site = mergeSiteConfig({
      brand: 'Night Shift',
      links: { x: 'https://x.com/nightshift' },
      giveaway: { schedule: { hour: 19, minute: 30 } },
    });
    expect(site.brand).toBe('Night Shift');
    expect(site.ticker).toBe('$GRIND');
    expect(site.links.x).toBe('https://x.com/nightshift');
    expect(site.links.telegram).toBe(defaultSite.links.telegram);
    expect(site.giveaway.schedule).toEqual({
      weekday: 0,
      hour: 19,
      minute: 30,
      timeZone: 'America/New_York',
    });
    expect(defaultSite.brand).toBe('Daily Grind');
    expect(defaultSite.giveaway.schedule.hour).toBe(20);
  });

  it('replaces arrays whole', () => {
    const roadmap = [{ title: 'Only step', description: 'Just one.', completed: true }];
    expect(mergeSiteConfig({ roadmap }).roadmap).toEqual(roadmap);
  });

  it('moves the address-derived links with a new address unless they are set', () => {
    const site = mergeSiteConfig({ contractAddress: OTHER_ADDRESS });
    expect(site.links.dexscreener).toBe(`https://dexscreener.com/solana/${OTHER_ADDRESS}`);
    expect(site.links.solscan).toBe(`https://solscan.io/token/${OTHER_ADDRESS}`);
    expect(site.links.buy).toContain(OTHER_ADDRESS);

    const pinned = mergeSiteConfig({
      contractAddress: OTHER_ADDRESS,
      links: { buy: 'https://raydium.io/swap' },
    });
    expect(pinned.links.buy).toBe('https://raydium.io/swap');
    expect(pinned.links.solscan).toBe(`https://solscan.io/token/${OTHER_ADDRESS}`);
  });

  it('accepts an empty address as pre-launch, with generic links', () => {
    const site = mergeSiteConfig({ contractAddress: '' });
    expect(isPreLaunch(site)).toBe(true);
    expect(site.links.dexscreener).toBe('https://dexscreener.com/solana');
    expect(site.links.solscan).toBe('https://solscan.io');
  });

  it('names the bad field in its error', () => {
    expect(problemsOf({ links: { x: 'javascript:alert(1)' } })).toEqual([
      'links.x: must be an http(s) URL',
    ]);
    expect(problemsOf({ contractAddress: 'not-an-address' })[0]).toMatch(/^contractAddress: /);
    expect(problemsOf({ launchAt: 'next tuesday' })[0]).toMatch(/^launchAt: /);
    expect(problemsOf({ giveaway: { schedule: { timeZone: 'Mars/Olympus' } } })[0]).toMatch(
      /^giveaway\.schedule\.timeZone: /,
    );
    expect(problemsOf({ giveaway: { schedule: { weekday: 7 } } })[0]).toMatch(
      /^giveaway\.schedule\.weekday: /,
    );
    expect(problemsOf({ roadmap: [{ title: 'x', completed: 'yes' }] })).toEqual([
      expect.stringMatching(/^roadmap\[0\]\.description: /),
      expect.stringMatching(/^roadmap\[0\]\.completed: /),
    ]);
    expect(
      problemsOf({ tokenomics: { distribution: [{ id: 'all', label: 'All', percent: 90 }] } }),
    ).toEqual(['tokenomics.distribution: percentages must add up to 100']);
    expect(problemsOf({ weeklyChallenge: { resetsAt: { weekday: 0 } } })[0]).toMatch(
      /^weeklyChallenge\.resetsAt\.weekday: /,
    );
    expect(
      problemsOf({ socialCards: [{ id: 'myspace', name: 'M', description: 'd' }] })[0],
    ).toMatch(/^socialCards\[0\]\.id: /);
  });

  it('rejects unknown fields so a typo is not silently ignored', () => {
    expect(problemsOf({ contractAdress: OTHER_ADDRESS })[0]).toMatch(/contractAdress/);
    expect(problemsOf({ links: { twitter: 'https://x.com/a' } })[0]).toMatch(/^links: .*twitter/);
  });

  it('rejects a root that is not an object', () => {
    expect(problemsOf([1, 2])).toEqual(['(root): must be a JSON object']);
    expect(problemsOf('brand')).toEqual(['(root): must be a JSON object']);
  });

  it('does not let a JSON "__proto__" key change any prototype', () => {
    const problems = problemsOf(JSON.parse('{"__proto__": {"polluted": true}}'));
    expect(problems[0]).toMatch(/__proto__/);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('puts every problem in a readable message', () => {
    expect(() => mergeSiteConfig({ brand: '', links: { x: 'ftp://x' } })).toThrow(
      /Invalid site config:\n {2}- brand: .*\n {2}- links\.x: must be an http\(s\) URL/,
    );
  });
});
