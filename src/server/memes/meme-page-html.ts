import { memePaths, pathTo } from '#shared/api/paths.ts';
import { categoryLabel } from '#shared/categories.ts';
import { escapeHtml } from '../site/index-html.ts';

/** What a meme's page says about it: everything but the ids comes from users and is escaped. */
export interface MemePageFacts {
  id: number;
  title: string;
  category: string;
  /** Path of the preview image, and its size. */
  imagePath: string;
  imageWidth: number;
  imageHeight: number;
}

/** The shell's own identity tags, which the meme's replace (the site's stay for other pages). */
const SITE_TAGS =
  /\s*<title>[\s\S]*?<\/title>|\s*<meta (?:name="description"|property="og:[^"]*"|name="twitter:[^"]*")[^>]*>/g;

/**
 * The client's HTML shell as the page of one meme: its Open Graph and Twitter card tags (so a
 * shared link previews as the meme, and a bot that runs no script sees them) and, for readers
 * without scripts, its title and image in the body. URLs are absolute from `origin`.
 */
export function renderMemePage(
  shell: string,
  meme: MemePageFacts,
  site: { brand: string },
  origin: string,
): string {
  const url = `${origin}${pathTo(memePaths.page, { id: meme.id })}`;
  const image = `${origin}${meme.imagePath}`;
  const title = `${meme.title} - ${site.brand} memes`;
  const description = `A ${categoryLabel(meme.category)} meme from the ${site.brand} community gallery.`;
  const tags: Array<[attribute: 'name' | 'property', key: string, content: string]> = [
    ['name', 'description', description],
    ['property', 'og:type', 'article'],
    ['property', 'og:site_name', site.brand],
    ['property', 'og:title', meme.title],
    ['property', 'og:description', description],
    ['property', 'og:url', url],
    ['property', 'og:image', image],
    ['property', 'og:image:width', String(meme.imageWidth)],
    ['property', 'og:image:height', String(meme.imageHeight)],
    ['property', 'og:image:alt', meme.title],
    ['name', 'twitter:card', 'summary_large_image'],
    ['name', 'twitter:title', meme.title],
    ['name', 'twitter:description', description],
    ['name', 'twitter:image', image],
    ['name', 'twitter:image:alt', meme.title],
  ];
  const head = [
    `<title>${escapeHtml(title)}</title>`,
    `<link rel="canonical" href="${escapeHtml(url)}" />`,
    ...tags.map(([a, key, content]) => `<meta ${a}="${key}" content="${escapeHtml(content)}" />`),
  ].join('\n    ');
  const body = `<noscript><main style="max-width:48rem;margin:2rem auto;padding:0 1rem">
      <h1>${escapeHtml(meme.title)}</h1>
      <img src="${escapeHtml(meme.imagePath)}" alt="${escapeHtml(meme.title)}" width="${meme.imageWidth}" height="${meme.imageHeight}" style="max-width:100%;height:auto" />
      <p><a href="/#gallery">More memes from the ${escapeHtml(site.brand)} gallery</a></p>
    </main></noscript>`;
  // Function replacements, so `$&` and friends in a title are not read as patterns.
  return shell
    .replace(SITE_TAGS, '')
    .replace(/<\/head>/, () => `  ${head}\n  </head>`)
    .replace(/<\/body>/, () => `${body}\n  </body>`);
}
