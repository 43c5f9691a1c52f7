import { launchLabel, launchTimeMs, type SiteConfig } from './site.ts';
import { formatWeekdayTime, nextWeeklyOccurrence, zoneCity } from './time.ts';

/**
 * What the server works out once, when it renders the pages at start, and writes into the page
 * for the client to reuse: zone-aware labels (Intl's zone data costs a phone tens of
 * milliseconds the first time) and the facts about time the HTML was rendered with, so the
 * client's first render (hydration) reads exactly what the server wrote.
 */
export interface PageLabels {
  /** "30 Sept 2025, 9:00 pm AEST (Sydney time)". */
  launch: string;
  /** The launch had passed when the page was rendered; it stays passed. */
  launched: boolean;
  /** "Sunday, 8:00 PM EST (New York time)": shown until the page's own clock takes over. */
  giveawaySchedule: string;
  /** The year the page was rendered in (the footer's ©), until the page's clock takes over. */
  year: number;
}

export function pageLabels(site: SiteConfig, nowMs: number): PageLabels {
  const { schedule } = site.giveaway;
  const next = nextWeeklyOccurrence(nowMs, schedule);
  return {
    launch: launchLabel(site),
    launched: launchTimeMs(site) <= nowMs,
    giveawaySchedule: `${formatWeekdayTime(next, schedule.timeZone, 'en-US')} (${zoneCity(schedule.timeZone)} time)`,
    year: new Date(nowMs).getUTCFullYear(),
  };
}
