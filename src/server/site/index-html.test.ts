import { describe, expect, it } from 'vitest';
import { pageLabels } from '#shared/page-labels.ts';
import { defaultSite, type SiteConfig } from '#shared/site.ts';
import { jsonForScript, renderIndexHtml } from './index-html.ts';

const LABELS = pageLabels(defaultSite, Date.parse('2026-11-25T04:00:00Z'));

const TEMPLATE = `<!doctype html><html><head>
    <!-- site-meta -->
    <title>Default</title>
    <!-- /site-meta -->
    <link rel="icon" href="/favicon.svg" />
  </head><body><div id="root"></div></body></html>`;

/** The config script's text, read the way an HTML parser does: up to the first `</script`. */
function configFrom(html: string): unknown {
  const open = '<script id="site-config" type="application/json">';
  const start = html.indexOf(open);
  if (start < 0) throw new Error('no site-config script');
  const from = start + open.length;
  return JSON.parse(html.slice(from, html.toLowerCase().indexOf('</script', from)));
}

function meta(html: string, key: string): string | undefined {
  const match = new RegExp(`<meta (?:name|property)="${key}" content="([^"]*)" />`).exec(html);
  return match?.[1];
}

describe('renderIndexHtml', () => {
  it('writes the title, description, Open Graph and Twitter tags from the site', () => {
    const html = renderIndexHtml(TEMPLATE, defaultSite, 'https://grind.example', LABELS);
    expect(html).toContain('<title>Daily Grind ($GRIND) – Celebrating the Daily Grind</title>');
    expect(html).not.toContain('<title>Default</title>');
    expect(meta(html, 'description')).toBe(defaultSite.description);
    expect(meta(html, 'og:title')).toBe('Daily Grind ($GRIND) – Celebrating the Daily Grind');
    expect(meta(html, 'og:image')).toBe('https://grind.example/og-image.png');
    expect(meta(html, 'og:image:width')).toBe('1200');
    expect(meta(html, 'og:image:height')).toBe('630');
    expect(meta(html, 'og:url')).toBe('https://grind.example/');
    expect(meta(html, 'twitter:card')).toBe('summary_large_image');
    expect(meta(html, 'twitter:image')).toBe('https://grind.example/og-image.png');
    expect(html).toContain('<link rel="icon" href="/favicon.svg" />');
  });

  it('uses a path for the image and no og:url without a public origin', () => {
    const html = renderIndexHtml(TEMPLATE, defaultSite, undefined, LABELS);
    expect(meta(html, 'og:image')).toBe('/og-image.png');
    expect(meta(html, 'og:url')).toBeUndefined();
  });

  it('hands the page the whole config as inert JSON', () => {
    const html = renderIndexHtml(TEMPLATE, defaultSite, undefined, LABELS);
    expect(configFrom(html)).toEqual(defaultSite);
  });

  it('hands the page the labels its HTML was rendered with', () => {
    const html = renderIndexHtml(TEMPLATE, defaultSite, undefined, LABELS);
    const labels = /<script id="site-labels" type="application\/json">(.*?)<\/script>/.exec(html);
    expect(JSON.parse(labels![1]!)).toEqual({
      launch: '30 Sept 2025, 9:00 pm AEST (Sydney time)',
      launched: true,
      giveawaySchedule: 'Sunday, 8:00 PM EST (New York time)',
      year: 2026,
    });
  });

  it('keeps hostile text inside its script and attributes', () => {
    const site: SiteConfig = {
      ...defaultSite,
      brand: '</script><script>alert(1)</script>',
      description: '"><img src=x onerror=alert(1)> & <!-- $& $1',
    };
    const html = renderIndexHtml(TEMPLATE, site, undefined, LABELS);
    expect(html).not.toContain('<script>alert(1)');
    expect(html).not.toContain('<img src=x');
    expect(configFrom(html)).toEqual(site);
    expect(meta(html, 'description')).toBe(
      '&quot;&gt;&lt;img src=x onerror=alert(1)&gt; &amp; &lt;!-- $&amp; $1',
    );
  });

  it('refuses a template without the block it rewrites', () => {
    expect(() =>
      renderIndexHtml('<html><head></head></html>', defaultSite, undefined, LABELS),
    ).toThrow(/site-meta/);
  });
});

describe('jsonForScript', () => {
  it('round-trips through JSON.parse with no angle brackets, ampersands or line separators', () => {
    const value = { a: '</script>', b: '<!--', c: '&amp;', d: '\u2028\u2029', e: ['>'] };
    const text = jsonForScript(value);
    expect(text).not.toMatch(/[<>&\u2028\u2029]/);
    expect(JSON.parse(text)).toEqual(value);
  });
});
