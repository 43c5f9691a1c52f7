/**
 * The page's first script, and a small one. The server's HTML already shows the whole page, so
 * the app (main.tsx: React, taking that HTML over) is fetched and started once the browser has
 * painted it: the first paint never waits for the app's code, nor shares a slow phone's
 * bandwidth with it. A click that comes before the app has the page is held, and replayed once
 * it has.
 */
import './styles.css';
import { holdClicks } from './lib/held-clicks.ts';
import { watchVisitor } from './lib/visitor-took-over.ts';
import type * as AppModule from './main.tsx';

const root = document.getElementById('root');
const clicks = holdClicks(root);
// A visitor who scrolls away from a `/#section` address before the app starts keeps their place.
watchVisitor();

// The build names the app's entry chunk and the chunks it imports on this script's tag
// (vite.config.ts); the dev server serves main.tsx itself.
const bootScript = document.querySelector<HTMLScriptElement>('script[data-app]');
const [appUrl = '/main.tsx', ...appImports] = bootScript?.dataset.app?.split(' ') ?? [];

/**
 * Resolves on a task of its own, so the browser may paint or take input before what follows. A
 * message, not a timer: a hidden tab runs timers at most once a second.
 */
function nextTask(): Promise<void> {
  return new Promise((resolve) => {
    const channel = new MessageChannel();
    channel.port1.onmessage = () => resolve();
    channel.port2.postMessage(null);
  });
}

async function loadApp(): Promise<void> {
  // All at once: the entry's imports need not wait for the entry to be read.
  for (const href of appImports) {
    document.head.append(
      Object.assign(document.createElement('link'), { rel: 'modulepreload', href }),
    );
  }
  try {
    // The entry's imports are loaded one chunk per task before the entry itself (React DOM is
    // a chunk of its own, vite.config.ts): the whole graph at once was one long task.
    for (const href of appImports) {
      await import(/* @vite-ignore */ href);
      await nextTask();
    }
    const { startApp } = (await import(/* @vite-ignore */ appUrl)) as typeof AppModule;
    startApp(() => clicks.release());
  } catch (error) {
    clicks.release();
    throw error;
  }
}

/** Calls `then` once the browser has painted the page's first text. */
function afterFirstPaint(then: () => void): void {
  let started = false;
  const once = () => {
    if (started) return;
    started = true;
    then();
  };
  // Every browser of the build's target reports paints (Paint Timing); the report comes on a
  // task of its own, after the paint.
  const observer = new PerformanceObserver((list) => {
    if (list.getEntriesByName('first-contentful-paint').length === 0) return;
    observer.disconnect();
    once();
  });
  observer.observe({ type: 'paint', buffered: true });
  // A browser that reports no paint (a hidden tab, paint timing switched off) still gets the
  // app; a hidden tab's timers run at most once a second, so this waits for nothing visible.
  setTimeout(once, 3000);
}

// A page the server did not render (the dev server, a page with its own shell) arrives empty:
// there is nothing to paint before the app.
if (root?.firstElementChild) afterFirstPaint(() => void loadApp());
else void loadApp();
