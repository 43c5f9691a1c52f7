import type { FastifyPluginAsync } from 'fastify';
import { memberPaths } from '#shared/api/paths.ts';
import type { SiteConfig } from '#shared/site.ts';
import { HttpError } from '../http-error.ts';
import { sendPage } from '../http/static-client.ts';
import type { SitePages } from '../site/pages.ts';
import { renderMemberPage } from './member-page-html.ts';
import { memberPage } from './service.ts';

/**
 * GET /u/:username: the client's shell with the member's card tags and what the page says
 * (member-page-html.ts), as /memes/:id is served. An unknown name gets the site's 404 page; a
 * deleted account's page answers 410. `no-cache`: a suspension shows at once.
 */
export function memberPageRoute(
  pages: SitePages,
  site: SiteConfig,
  publicOrigin: string | undefined,
): FastifyPluginAsync {
  return async (app) => {
    app.get<{ Params: { username: string } }>(memberPaths.page, async (request, reply) => {
      let page;
      try {
        page = await memberPage(app.deps, site, request.params.username);
      } catch (error) {
        if (error instanceof HttpError && error.statusCode === 404) {
          return sendPage(request, reply, pages.pageFor(request.url.split('?', 1)[0]!));
        }
        throw error;
      }
      // Without PUBLIC_ORIGIN, the address the request came to (escaped like all the rest).
      const origin = publicOrigin ?? `${request.protocol}://${request.host}`;
      return reply
        .code(page.status === 'deleted' ? 410 : 200)
        .type('text/html; charset=utf-8')
        .header('cache-control', 'no-cache')
        .send(renderMemberPage(pages.shell, page, site, origin));
    });
  };
}
