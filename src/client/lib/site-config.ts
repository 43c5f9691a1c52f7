import { defaultSite, type SiteConfig } from '#shared/site.ts';

let cached: SiteConfig | undefined;

function readInjectedConfig(): SiteConfig {
  // The server validated the operator's file at start and wrote the merged result here; the
  // dev server (Vite's own index.html) has none, so the shipped defaults apply.
  const text =
    typeof document === 'undefined' ? null : document.getElementById('site-config')?.textContent;
  if (!text) return defaultSite;
  try {
    const parsed: unknown = JSON.parse(text);
    return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)
      ? (parsed as SiteConfig)
      : defaultSite;
  } catch {
    return defaultSite;
  }
}

/** The site's facts for this page: the operator's SITE_CONFIG merged over the defaults. */
export function getSite(): SiteConfig {
  cached ??= readInjectedConfig();
  return cached;
}

/** The same, for components; the config never changes while the page is open. */
export function useSite(): SiteConfig {
  return getSite();
}
