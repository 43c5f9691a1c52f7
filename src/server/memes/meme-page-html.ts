import { memePaths, pathTo } from '#shared/api/paths.ts';
import { categoryLabel } from '#shared/categories.ts';
import { escapeHtml, renderShellPage, shareCardTags } from '../site/index-html.ts';

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
  const tags = shareCardTags({
    type: 'article',
    siteName: site.brand,
    title: meme.title,
    description: `A ${categoryLabel(meme.category)} meme from the ${site.brand} community gallery.`,
    url,
    image: {
      url: `${origin}${meme.imagePath}`,
      width: meme.imageWidth,
      height: meme.imageHeight,
      alt: meme.title,
    },
    twitterCard: 'summary_large_image',
  });
  return renderShellPage(shell, {
    title: `${meme.title} - ${site.brand} memes`,
    url,
    tags,
    body: [
      `<h1>${escapeHtml(meme.title)}</h1>`,
      `<img src="${escapeHtml(meme.imagePath)}" alt="${escapeHtml(meme.title)}" width="${meme.imageWidth}" height="${meme.imageHeight}" style="max-width:100%;height:auto" />`,
      `<p><a href="/#gallery">More memes from the ${escapeHtml(site.brand)} gallery</a></p>`,
    ],
  });
}
