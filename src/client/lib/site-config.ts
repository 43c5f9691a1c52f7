import { createContext, createElement, useContext, type ReactNode } from 'react';
import { pageLabels, type PageLabels } from '#shared/page-labels.ts';
import { defaultSite, type SiteConfig } from '#shared/site.ts';

/** The site's facts and the server's labels for them, as one page sees them. */
export interface PageFacts {
  site: SiteConfig;
  labels: PageLabels;
}

/** A JSON object the server wrote into the page, or undefined (e.g. on the dev server). */
function readInjected(id: string): Record<string, unknown> | undefined {
  const text = typeof document === 'undefined' ? null : document.getElementById(id)?.textContent;
  if (!text) return undefined;
  try {
    const parsed: unknown = JSON.parse(text);
    return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)
      ? (parsed as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The facts the server wrote into this page: the operator's SITE_CONFIG merged over the
 * defaults (validated at start) and the labels it rendered the page with. The server writes
 * them into every page it serves; Vite's dev server writes none, so the shipped defaults and
 * this device's labels apply there (and only there: the build drops them from the first load).
 */
export function readPageFacts(): PageFacts {
  const site = readInjected('site-config') as SiteConfig | undefined;
  const labels = readInjected('site-labels') as PageLabels | undefined;
  if (site && labels) return { site, labels };
  if (import.meta.env.DEV)
    return { site: defaultSite, labels: pageLabels(defaultSite, Date.now()) };
  throw new Error(
    'The page carries no site facts (site-config, site-labels): serve it with the server',
  );
}

const PageFactsContext = createContext<PageFacts | null>(null);

/** The server renders with its own facts; the browser with the ones written into the page. */
export function PageFactsProvider({ facts, children }: { facts: PageFacts; children: ReactNode }) {
  return createElement(PageFactsContext.Provider, { value: facts }, children);
}

function usePageFacts(): PageFacts {
  const facts = useContext(PageFactsContext);
  if (!facts) throw new Error('PageFactsProvider is missing');
  return facts;
}

/** The site config; it never changes while the page is open. */
export function useSite(): SiteConfig {
  return usePageFacts().site;
}

export function usePageLabels(): PageLabels {
  return usePageFacts().labels;
}
