import { memePaths, pathTo } from '#shared/api/paths.ts';
import { categoryLabel } from '#shared/categories.ts';
import { escapeHtml, renderShellPage, type MetaTag } from '../site/index-html.ts';

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

/**
 * The client's HTML shell as the page of one meme: its Open Graph and Twitter card tags and, for
 * readers without scripts, its title and image. URLs are absolute from `origin`.
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
  const tags: MetaTag[] = [
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
  return renderShellPage(shell, {
    title,
    url,
    tags,
    body: [
      `<h1>${escapeHtml(meme.title)}</h1>`,
      `<img src="${escapeHtml(meme.imagePath)}" alt="${escapeHtml(meme.title)}" width="${meme.imageWidth}" height="${meme.imageHeight}" style="max-width:100%;height:auto" />`,
      `<p><a href="/#gallery">More memes from the ${escapeHtml(site.brand)} gallery</a></p>`,
    ],
  });
}
