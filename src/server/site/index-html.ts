import type { PageLabels } from '#shared/page-labels.ts';
import { brandAssets, siteTitle, type SiteConfig } from '#shared/site.ts';

/** index.html marks the tags the server rewrites from the site config (the defaults stay for dev). */
const META_BLOCK = /<!-- site-meta -->[\s\S]*?<!-- \/site-meta -->/;

function escapeAttribute(value: string): string {
  return value
    .replace(/&/g, '&amp;')
    .replace(/"/g, '&quot;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;');
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
  const imageUrl = `${publicOrigin ?? ''}${brandAssets.ogImage.src}`;
  const imageAlt = `${site.mascot}, the ${site.brand} mascot, with the ${site.ticker} ticker`;
  const meta: Array<[attribute: 'name' | 'property', key: string, content: string]> = [
    ['name', 'description', site.description],
    ['property', 'og:type', 'website'],
    ['property', 'og:site_name', site.brand],
    ['property', 'og:title', title],
    ['property', 'og:description', site.description],
    ['property', 'og:image', imageUrl],
    ['property', 'og:image:width', String(brandAssets.ogImage.width)],
    ['property', 'og:image:height', String(brandAssets.ogImage.height)],
    ['property', 'og:image:alt', imageAlt],
    ...(publicOrigin
      ? [['property', 'og:url', `${publicOrigin}/`] as ['property', string, string]]
      : []),
    ['name', 'twitter:card', 'summary_large_image'],
    ['name', 'twitter:title', title],
    ['name', 'twitter:description', site.description],
    ['name', 'twitter:image', imageUrl],
    ['name', 'twitter:image:alt', imageAlt],
  ];
  const block = [
    `<title>${escapeAttribute(title)}</title>`,
    ...meta.map(
      ([attribute, key, content]) =>
        `<meta ${attribute}="${key}" content="${escapeAttribute(content)}" />`,
    ),
    `<script id="site-config" type="application/json">${jsonForScript(site)}</script>`,
    // What the server rendered the pages with (shared/page-labels.ts): the browser's first
    // render must read the same.
    `<script id="site-labels" type="application/json">${jsonForScript(labels)}</script>`,
  ].join('\n    ');
  // A function replacement, so `$&` and friends in the config are not read as patterns.
  return template.replace(META_BLOCK, () => block);
}
