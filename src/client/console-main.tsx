import { StrictMode, useEffect } from 'react';
import { createRoot } from 'react-dom/client';
import { ConsolePage } from './app/console-page.tsx';
import { readPageFacts } from './lib/site-config.ts';

function OnceStarted({ then }: { then: () => void }) {
  useEffect(then, [then]);
  return null;
}

/**
 * The console's entry, built on its own (scripts/build-site.ts): boot.ts starts it in place of
 * the site's app on /admin (the server names it on that page's boot script,
 * console/page-route.ts). The page arrives empty.
 */
export function startApp(onTakenOver: () => void): void {
  createRoot(document.getElementById('root')!).render(
    <StrictMode>
      <ConsolePage facts={readPageFacts()} />
      <OnceStarted then={onTakenOver} />
    </StrictMode>,
  );
}
