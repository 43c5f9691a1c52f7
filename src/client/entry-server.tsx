/**
 * The server's way into the client's components (built by `vite build --ssr`, loaded by
 * src/server/site/pages.ts at start): a page's HTML from the same React tree the browser
 * hydrates. Every lazy part the page shows is waited for, so the HTML is the whole page.
 */
import { StrictMode } from 'react';
import { renderToString } from 'react-dom/server';
import { prerenderToNodeStream } from 'react-dom/static';
import { App } from './app/app.tsx';
import type { PageFacts } from './lib/site-config.ts';

export type { PageFacts };

/** The HTML inside <div id="root"> for the page at `path`, with the site's facts. */
export async function renderPage(path: string, facts: PageFacts): Promise<string> {
  const page = (
    <StrictMode>
      <App facts={facts} ssrPath={path} />
    </StrictMode>
  );
  // The first pass waits for every lazy part to load. Its HTML puts parts that were still
  // loading at the end, moved into place by inline scripts, which the page's CSP forbids; so
  // the page is rendered again, now with nothing left to wait for, in document order.
  const { prelude } = await prerenderToNodeStream(page);
  for await (const chunk of prelude) void chunk;
  return renderToString(page);
}
