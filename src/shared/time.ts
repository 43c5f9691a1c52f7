/**
 * Time maths for the countdowns and the weekly boundaries. Every function takes the current
 * time as an argument (so the page can correct a visitor's wrong clock and tests are exact);
 * zone offsets come from Intl, so no date library is needed.
 */

export const SECOND_MS = 1000;
export const MINUTE_MS = 60 * SECOND_MS;
export const HOUR_MS = 60 * MINUTE_MS;
export const DAY_MS = 24 * HOUR_MS;
export const WEEK_MS = 7 * DAY_MS;

export interface CountdownParts {
  days: number;
  hours: number;
  minutes: number;
  seconds: number;
  /** True once the target is reached (all units are then zero). */
  launched: boolean;
}

export interface WeeklyTime {
  /** 0 = Sunday ... 6 = Saturday. */
  weekday: number;
  hour: number;
  minute: number;
  /** IANA zone, e.g. "America/New_York". */
  timeZone: string;
}

export function countdownParts(targetMs: number, nowMs: number): CountdownParts {
  const remaining = targetMs - nowMs;
  if (!(remaining > 0)) return { days: 0, hours: 0, minutes: 0, seconds: 0, launched: true };
  // Rounding up means the display only reads 00:00:00:00 once the moment has actually come.
  const total = Math.ceil(remaining / SECOND_MS);
  return {
    days: Math.floor(total / 86_400),
    hours: Math.floor(total / 3600) % 24,
    minutes: Math.floor(total / 60) % 60,
    seconds: total % 60,
    launched: false,
  };
}

export function pad2(n: number): string {
  return String(Math.trunc(n)).padStart(2, '0');
}

/** Floor modulo, so negative instants (before 1970) land in the right day or week. */
function mod(a: number, b: number): number {
  return ((a % b) + b) % b;
}

export interface WallClock {
  year: number;
  month: number; // 1-12
  day: number;
  hour: number;
  minute: number;
  second: number;
}

const formatters = new Map<string, Intl.DateTimeFormat>();

function wallClockFormatter(timeZone: string): Intl.DateTimeFormat {
  let formatter = formatters.get(timeZone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
      era: 'short',
    });
    formatters.set(timeZone, formatter);
  }
  return formatter;
}

/** The wall clock in `timeZone` at instant `ms` (to the second). */
function wallClockAt(ms: number, timeZone: string): WallClock {
  const fields: Record<string, string> = {};
  for (const part of wallClockFormatter(timeZone).formatToParts(ms)) fields[part.type] = part.value;
  const yearOfEra = Number(fields.year);
  return {
    year: fields.era === 'BC' ? 1 - yearOfEra : yearOfEra,
    month: Number(fields.month),
    day: Number(fields.day),
    // Some engines print midnight as 24 even with h23.
    hour: Number(fields.hour) % 24,
    minute: Number(fields.minute),
    second: Number(fields.second),
  };
}

function wallClockAsUtcMs(w: WallClock): number {
  const d = new Date(0);
  d.setUTCFullYear(w.year, w.month - 1, w.day);
  d.setUTCHours(w.hour, w.minute, w.second, 0);
  return d.getTime();
}

/** How far `timeZone` is ahead of UTC at instant `ms` (e.g. -4 h for New York in summer). */
function zoneOffsetMs(ms: number, timeZone: string): number {
  const wholeSecond = Math.floor(ms / SECOND_MS) * SECOND_MS;
  return wallClockAsUtcMs(wallClockAt(wholeSecond, timeZone)) - wholeSecond;
}

/**
 * The instant when the wall clock in `timeZone` reads `wall`. A time repeated by a fall-back
 * change resolves to the earlier instant; a time skipped by a spring-forward change moves
 * forward by the gap (02:30 becomes 03:30), as Temporal's "compatible" disambiguation does.
 */
export function zonedTimeToUtcMs(wall: WallClock, timeZone: string): number {
  const asUtc = wallClockAsUtcMs(wall);
  const offsetBefore = zoneOffsetMs(asUtc - DAY_MS, timeZone);
  const offsetAfter = zoneOffsetMs(asUtc + DAY_MS, timeZone);
  const candidates = [asUtc - offsetBefore, asUtc - offsetAfter]
    .filter((t) => t + zoneOffsetMs(t, timeZone) === asUtc)
    .sort((a, b) => a - b);
  return candidates[0] ?? asUtc - offsetBefore;
}

/** The next instant strictly after `nowMs` when the clock in the zone reads the weekly time. */
export function nextWeeklyOccurrence(nowMs: number, at: WeeklyTime): number {
  const today = wallClockAt(nowMs, at.timeZone);
  const todayUtcMidnight = Date.UTC(today.year, today.month - 1, today.day);
  const todayWeekday = new Date(todayUtcMidnight).getUTCDay();
  const firstOffset = mod(at.weekday - todayWeekday, 7);
  // At most two candidates: this week's (if still ahead) and the following week's.
  for (const dayOffset of [firstOffset, firstOffset + 7, firstOffset + 14]) {
    const date = new Date(todayUtcMidnight + dayOffset * DAY_MS);
    const candidate = zonedTimeToUtcMs(
      {
        year: date.getUTCFullYear(),
        month: date.getUTCMonth() + 1,
        day: date.getUTCDate(),
        hour: at.hour,
        minute: at.minute,
        second: 0,
      },
      at.timeZone,
    );
    if (candidate > nowMs) return candidate;
  }
  throw new Error('unreachable: a weekly time always recurs within two weeks');
}

/** Monday 00:00 UTC of the ISO week containing `nowMs`. */
export function weekStartUtc(nowMs: number): number {
  const day = Math.floor(nowMs / DAY_MS);
  // 1970-01-01 was a Thursday, i.e. 3 days after a Monday.
  const daysSinceMonday = mod(day + 3, 7);
  return (day - daysSinceMonday) * DAY_MS;
}

export function nextWeekStartUtc(nowMs: number): number {
  return weekStartUtc(nowMs) + WEEK_MS;
}

/** ISO 8601 week id of the UTC date, e.g. "2026-W47"; the year is the ISO week-year. */
export function isoWeekId(nowMs: number): string {
  const thursday = new Date(weekStartUtc(nowMs) + 3 * DAY_MS);
  const weekYear = thursday.getUTCFullYear();
  const jan1 = Date.UTC(weekYear, 0, 1);
  const week = Math.floor((thursday.getTime() - jan1) / WEEK_MS) + 1;
  return `${String(weekYear).padStart(4, '0')}-W${pad2(week)}`;
}

/** Start (Monday 00:00 UTC) of the ISO week named by `id`; throws on anything malformed. */
export function parseIsoWeekId(id: string): number {
  const match = /^(\d{4})-W(\d{2})$/.exec(id);
  if (!match) throw new RangeError(`Invalid ISO week id "${id}" (expected e.g. "2026-W07")`);
  const year = Number(match[1]);
  const week = Number(match[2]);
  // Week 1 is the week holding 4 January.
  const start = weekStartUtc(Date.UTC(year, 0, 4)) + (week - 1) * WEEK_MS;
  if (week < 1 || isoWeekId(start) !== id) {
    throw new RangeError(`Invalid ISO week id "${id}": ${year} has no week ${week}`);
  }
  return start;
}

/** Days since the epoch of the calendar date at `ms` in the zone (undefined = runtime zone). */
function calendarDay(ms: number, timeZone: string | undefined): number {
  const zone = timeZone ?? new Intl.DateTimeFormat().resolvedOptions().timeZone;
  const wall = wallClockAt(ms, zone);
  return Math.floor(Date.UTC(wall.year, wall.month - 1, wall.day) / DAY_MS);
}

/**
 * "Today", "Yesterday", "N days ago" (2 to 7), else the locale date, comparing calendar days in
 * `timeZone` (the runtime's zone when omitted). A slightly future time (clock skew) is "Today".
 */
export function relativeDayLabel(
  createdMs: number,
  nowMs: number,
  timeZone?: string,
  locale?: string,
): string {
  const days = calendarDay(nowMs, timeZone) - calendarDay(createdMs, timeZone);
  if (days <= 0) return 'Today';
  if (days === 1) return 'Yesterday';
  if (days <= 7) return `${days} days ago`;
  return new Date(createdMs).toLocaleDateString(locale, { timeZone });
}

const displayFormatters = new Map<string, Intl.DateTimeFormat>();

/**
 * Building an Intl.DateTimeFormat costs far more than using one (the first in a page loads
 * zone data), and countdown labels are formatted every second, so each kind is built once.
 */
function cachedFormat(
  locale: string | undefined,
  options: Intl.DateTimeFormatOptions,
): Intl.DateTimeFormat {
  const key = JSON.stringify([locale ?? '', options]);
  let formatter = displayFormatters.get(key);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat(locale, options);
    displayFormatters.set(key, formatter);
  }
  return formatter;
}

/**
 * Date, time and short zone name, e.g. "30 Sept 2025, 9:00 pm AEST" for en-AU in
 * Australia/Sydney. `locale` defaults to the runtime's; short names like "AEST" come out only
 * in a locale that knows them (others print "GMT+10"), hence the parameter.
 */
export function formatInZone(ms: number, timeZone: string, locale?: string): string {
  return cachedFormat(locale, {
    timeZone,
    day: 'numeric',
    month: 'short',
    year: 'numeric',
    hour: 'numeric',
    minute: '2-digit',
    timeZoneName: 'short',
  }).format(ms);
}

/**
 * Weekday, time and short zone name, e.g. "Sunday, 8:00 PM EST" (en-US, America/New_York):
 * how a weekly event reads in one zone. `timeZone` undefined means the runtime's own zone.
 */
export function formatWeekdayTime(ms: number, timeZone?: string, locale?: string): string {
  return cachedFormat(locale, {
    timeZone,
    weekday: 'long',
    hour: 'numeric',
    minute: '2-digit',
    timeZoneName: 'short',
  }).format(ms);
}

/**
 * How far the server's clock is ahead of this device's, from one request: the server read its
 * clock somewhere between sending and receiving, and the midpoint is the best single guess
 * (off by at most half the round trip).
 */
export function clockOffsetMs(sentMs: number, receivedMs: number, serverMs: number): number {
  return Math.round(serverMs - (sentMs + receivedMs) / 2);
}

/** Milliseconds until the clock next reads a whole second (a full second when it just did). */
export function msUntilNextSecond(nowMs: number): number {
  return SECOND_MS - mod(nowMs, SECOND_MS);
}

/** The place an IANA zone is named after: "America/New_York" -> "New York". */
export function zoneCity(timeZone: string): string {
  return (timeZone.split('/').pop() ?? timeZone).replace(/_/g, ' ');
}

/** An ISO week by its id (2026-W47): its first millisecond and the next week's. */
export interface IsoWeek {
  id: string;
  start: number;
  end: number;
}

/** The week `id` names; throws on a malformed id (parseIsoWeekId's message). */
export function isoWeek(id: string): IsoWeek {
  const start = parseIsoWeekId(id);
  return { id, start, end: nextWeekStartUtc(start) };
}

/** A time as operators read it (the CLI, the console, refusals): UTC, to the second. */
export function utc(ms: number): string {
  return new Date(ms).toISOString().replace('T', ' ').slice(0, 19);
}
