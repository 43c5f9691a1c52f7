/**
 * Raid mode (issue 43, docs/decisions/027-raid-day.md): the thresholds an operator sets, with
 * the defaults a new site starts with (migration 023 writes the same numbers), and the pure
 * rules that enter and leave it.
 */
export interface RaidThresholds {
  /** Accounts opened in the last hour. */
  signupsPerHour: number;
  /** Memes posted in the last hour by accounts of standing `new`. */
  newPostsPerHour: number;
  /** Reports filed in the last hour. */
  reportsPerHour: number;
  /** Raid mode ends once every count has stayed under its threshold this long. */
  quietMinutes: number;
}

export interface HourlyActivity {
  signups: number;
  newPosts: number;
  reports: number;
}

/** Which counts have reached their thresholds (empty: none). */
export function raidSigns(activity: HourlyActivity, thresholds: RaidThresholds): string[] {
  const signs: string[] = [];
  if (activity.signups >= thresholds.signupsPerHour) {
    signs.push(`${activity.signups} sign-ups in an hour (threshold ${thresholds.signupsPerHour})`);
  }
  if (activity.newPosts >= thresholds.newPostsPerHour) {
    signs.push(
      `${activity.newPosts} memes from new accounts in an hour (threshold ${thresholds.newPostsPerHour})`,
    );
  }
  if (activity.reports >= thresholds.reportsPerHour) {
    signs.push(`${activity.reports} reports in an hour (threshold ${thresholds.reportsPerHour})`);
  }
  return signs;
}

/** What the pages say while raid mode is on. */
export const RAID_NOTICE =
  'The site is in raid mode: new accounts cannot post, vote or report, visitors cannot vote, and signing up takes a short check in your browser.';

/** `GET` whether raid mode is on; kept here, free of zod, for the page's first load. */
export const RAID_STATUS_PATH = '/api/raid-mode';
