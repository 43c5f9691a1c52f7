import type { FastifyPluginAsync } from 'fastify';
import { memePaths } from '#shared/api/paths.ts';
import { MAX_ROW_ID } from '#shared/api/text.ts';
import { sendPage } from '../http/static-client.ts';
import type { SitePages } from '../site/pages.ts';
import { objectPathForKey } from './object-paths.ts';
import { renderMemePage } from './meme-page-html.ts';
import { findVisibleMeme } from './repository.ts';

/**
 * GET /memes/:id: the client's shell with the meme's card tags, so a link shared on X or
 * Telegram previews as the meme. A hidden, deleted or unknown meme gets the site's 404 page
 * with its status, and none of the meme's tags. `no-cache`: a meme hidden by moderation must
 * lose its page at once.
 */
export function memePageRoute(
  pages: SitePages,
  site: { brand: string },
  publicOrigin: string | undefined,
): FastifyPluginAsync {
  return async (app) => {
    app.get<{ Params: { id: string } }>(memePaths.page, async (request, reply) => {
      const raw = request.params.id;
      const id = /^[1-9][0-9]{0,9}$/.test(raw) && Number(raw) <= MAX_ROW_ID ? Number(raw) : null;
      const meme = id === null ? undefined : await findVisibleMeme(app.deps.db, id);
      if (!meme) return sendPage(request, reply, pages.pageFor(request.url.split('?', 1)[0]!));
      reply.type('text/html; charset=utf-8').header('cache-control', 'no-cache');
      // Memes from before migration 011 have no display size: they preview with the thumbnail.
      const sized = meme.image_width !== null && meme.image_height !== null;
      // Without PUBLIC_ORIGIN, the address the request came to (escaped like all the rest).
      const origin = publicOrigin ?? `${request.protocol}://${request.host}`;
      return reply.send(
        renderMemePage(
          pages.shell,
          {
            id: meme.id,
            title: meme.title,
            category: meme.category,
            imagePath: objectPathForKey(sized ? meme.image_key : meme.thumbnail_key),
            imageWidth: sized ? meme.image_width! : meme.thumbnail_width,
            imageHeight: sized ? meme.image_height! : meme.thumbnail_height,
          },
          site,
          origin,
        ),
      );
    });
  };
}
