import { defaultSite, launchLabel, type SiteConfig } from '#shared/site.ts';

let cachedSite: SiteConfig | undefined;
let cachedLaunchLabel: string | undefined;

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
 * The site's facts for this page: the operator's SITE_CONFIG merged over the defaults, which
 * the server validated at start and wrote into the page. Vite's dev server writes none, so
 * the shipped defaults apply there.
 */
export function getSite(): SiteConfig {
  cachedSite ??= (readInjected('site-config') as SiteConfig | undefined) ?? defaultSite;
  return cachedSite;
}

/** The same, for components; the config never changes while the page is open. */
export function useSite(): SiteConfig {
  return getSite();
}

/** "30 Sept 2025, 9:00 pm AEST (Sydney time)": written by the server, else formatted here. */
export function getLaunchLabel(): string {
  if (cachedLaunchLabel === undefined) {
    const written = readInjected('site-labels')?.launch;
    cachedLaunchLabel = typeof written === 'string' ? written : launchLabel(getSite());
  }
  return cachedLaunchLabel;
}
