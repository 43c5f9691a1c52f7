import { StrictMode, startTransition, useEffect } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { App } from './app/app.tsx';
import { readPageFacts } from './lib/site-config.ts';

/** Calls `then` once React has committed the page: the server's HTML is live from here on. */
function OnceTakenOver({ then }: { then: () => void }) {
  useEffect(then, [then]);
  return null;
}

/** Starts the app (boot.ts, after the first paint); `onTakenOver` once it has the page. */
export function startApp(onTakenOver: () => void): void {
  const root = document.getElementById('root')!;
  const app = (
    <StrictMode>
      <App facts={readPageFacts()} />
      <OnceTakenOver then={onTakenOver} />
    </StrictMode>
  );
  // The server rendered this page (entry-server.tsx): take its HTML over, as a transition so
  // React hydrates it in slices that let the browser in between (a plain hydrateRoot runs at a
  // blocking priority, without yielding; decision 025 has the blocking time before and after).
  // Clicks meanwhile are held (boot.ts) until it has the page. A page the server did not
  // render (the dev server, a page with its own shell) arrives empty and is rendered here.
  if (root.firstElementChild) startTransition(() => void hydrateRoot(root, app));
  else createRoot(root).render(app);
}
