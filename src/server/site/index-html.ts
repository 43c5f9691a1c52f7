import type { PageLabels } from '#shared/page-labels.ts';
import { brandAssets, siteTitle, type SiteConfig } from '#shared/site.ts';

/** index.html marks the tags the server rewrites from the site config (the defaults stay for dev). */
const META_BLOCK = /<!-- site-meta -->[\s\S]*?<!-- \/site-meta -->/;

export function escapeHtml(value: string): string {
  return value
    .replace(/&/g, '&amp;')
    .replace(/"/g, '&quot;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;');
}

/** A `<meta>` tag: by name or by property, and its content. */
export type MetaTag = [attribute: 'name' | 'property', key: string, content: string];

const metaTagHtml = ([attribute, key, content]: MetaTag) =>
  `<meta ${attribute}="${key}" content="${escapeHtml(content)}" />`;

/** What a link to a page previews as (Open Graph, and X's card): the site's, a meme's, a member's. */
interface ShareCard {
  type: 'website' | 'article' | 'profile';
  siteName: string;
  title: string;
  description: string;
  /** The page's absolute address; left out where it is not known (index.html without PUBLIC_ORIGIN). */
  url?: string;
  image: { url: string; width: number; height: number; alt?: string };
  /** `summary_large_image` shows the picture across the card, `summary` as a small square. */
  twitterCard: 'summary' | 'summary_large_image';
}

type MaybeTag = [MetaTag[0], string, string | undefined];

/** The page's description and its share card, as `<meta>` tags; one with no content is left out. */
export function shareCardTags(card: ShareCard): MetaTag[] {
  const { image } = card;
  // Both cards say the same of the page: Open Graph's as properties, X's as names.
  const onBothCards = {
    title: card.title,
    description: card.description,
    image: image.url,
    'image:alt': image.alt,
  };
  const tags: MaybeTag[] = [
    ['name', 'description', card.description],
    ['property', 'og:type', card.type],
    ['property', 'og:site_name', card.siteName],
    ['property', 'og:url', card.url],
    ['property', 'og:image:width', String(image.width)],
    ['property', 'og:image:height', String(image.height)],
    ['name', 'twitter:card', card.twitterCard],
    ...Object.entries(onBothCards).flatMap(([key, content]): MaybeTag[] => [
      ['property', `og:${key}`, content],
      ['name', `twitter:${key}`, content],
    ]),
  ];
  return tags.filter((tag): tag is MetaTag => tag[2] !== undefined);
}

/**
 * JSON that can sit inside <script>: `<` (so no `</script>` or `<!--` can end or bend it),
 * `>`, `&` and the two JavaScript line separators become \u escapes, which JSON.parse undoes.
 */
export function jsonForScript(value: unknown): string {
  return JSON.stringify(value).replace(/[<>&\u2028\u2029]/g, (ch) => {
    return `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`;
  });
}

/**
 * The page's identity tags, the site config and the labels the pages were rendered with, for
 * the client, written into the built index.html once at start. They go in JSON <script>s that
 * never run, so the Content-Security-Policy (script-src 'self') needs no exception for them.
 */
export function renderIndexHtml(
  template: string,
  site: SiteConfig,
  publicOrigin: string | undefined,
  labels: PageLabels,
): string {
  if (!META_BLOCK.test(template)) {
    throw new Error('index.html lacks its <!-- site-meta --> ... <!-- /site-meta --> block');
  }
  const title = siteTitle(site);
  // Link previews need an absolute image address; without PUBLIC_ORIGIN the path is the best we know.
  const meta = shareCardTags({
    type: 'website',
    siteName: site.brand,
    title,
    description: site.description,
    url: publicOrigin ? `${publicOrigin}/` : undefined,
    image: {
      url: `${publicOrigin ?? ''}${brandAssets.ogImage.src}`,
      width: brandAssets.ogImage.width,
      height: brandAssets.ogImage.height,
      alt: `${site.mascot}, the ${site.brand} mascot, with the ${site.ticker} ticker`,
    },
    twitterCard: 'summary_large_image',
  });
  const block = [
    `<title>${escapeHtml(title)}</title>`,
    ...meta.map(metaTagHtml),
    `<script id="site-config" type="application/json">${jsonForScript(site)}</script>`,
    // What the server rendered the pages with (shared/page-labels.ts): the browser's first
    // render must read the same.
    `<script id="site-labels" type="application/json">${jsonForScript(labels)}</script>`,
  ].join('\n    ');
  // A function replacement, so `$&` and friends in the config are not read as patterns.
  return template.replace(META_BLOCK, () => block);
}

/** The shell's own identity tags, which a page of its own replaces (the site's stay for others). */
const SITE_TAGS =
  /\s*<title>[\s\S]*?<\/title>|\s*<meta (?:name="description"|property="og:[^"]*"|name="twitter:[^"]*")[^>]*>/g;

/**
 * The client's HTML shell as a page of its own (a meme's, a member's): its title, canonical
 * address and meta tags in place of the shell's (so a shared link previews as the page, and a bot
 * that runs no script sees them) and, for readers without scripts, `body`'s lines (HTML, their
 * user text escaped by the caller). URLs are absolute.
 */
export function renderShellPage(
  shell: string,
  page: { title: string; url: string; tags: MetaTag[]; body: string[] },
): string {
  const head = [
    `<title>${escapeHtml(page.title)}</title>`,
    `<link rel="canonical" href="${escapeHtml(page.url)}" />`,
    ...page.tags.map(metaTagHtml),
  ].join('\n    ');
  const body = `<noscript><main style="max-width:48rem;margin:2rem auto;padding:0 1rem">
      ${page.body.join('\n      ')}
    </main></noscript>`;
  // Function replacements, so `$&` and friends in a title are not read as patterns.
  return shell
    .replace(SITE_TAGS, '')
    .replace(/<\/head>/, () => `  ${head}\n  </head>`)
    .replace(/<\/body>/, () => `${body}\n  </body>`);
}
