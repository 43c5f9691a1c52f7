import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  DAY_MS,
  HOUR_MS,
  MINUTE_MS,
  WEEK_MS,
  countdownParts,
  clockOffsetMs,
  formatInZone,
  formatWeekdayTime,
  isoWeekId,
  msUntilNextSecond,
  nextWeekStartUtc,
  nextWeeklyOccurrence,
  pad2,
  parseIsoWeekId,
  relativeDayLabel,
  weekStartUtc,
  zoneCity,
  zonedTimeToUtcMs,
} from './time.ts';

const at = (iso: string) => Date.parse(iso);
const sundayEightPmNewYork = {
  weekday: 0,
  hour: 20,
  minute: 0,
  timeZone: 'America/New_York',
} as const;

/** Weekday (0 = Sunday), hour and minute the wall clock reads in the zone at `ms`. */
function wallClock(ms: number, timeZone: string) {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone,
    weekday: 'short',
    hour: 'numeric',
    minute: 'numeric',
    hourCycle: 'h23',
  }).formatToParts(ms);
  const get = (type: string) => parts.find((p) => p.type === type)?.value ?? '';
  const weekdays = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
  return {
    weekday: weekdays.indexOf(get('weekday')),
    hour: Number(get('hour')) % 24,
    minute: Number(get('minute')),
  };
}

describe('countdownParts', () => {
  it('splits the remaining time into days, hours, minutes and seconds', () => {
    const target = at('2025-09-30T11:00:00Z');
    const now = target - (2 * DAY_MS + 3 * HOUR_MS + 4 * MINUTE_MS + 5_000);
    expect(countdownParts(target, now)).toEqual({
      days: 2,
      hours: 3,
      minutes: 4,
      seconds: 5,
      launched: false,
    });
  });

  it('shows zeros and launched at the launch instant and after it', () => {
    const target = at('2025-09-30T11:00:00Z');
    const zero = { days: 0, hours: 0, minutes: 0, seconds: 0, launched: true };
    expect(countdownParts(target, target)).toEqual(zero);
    expect(countdownParts(target, target + 1)).toEqual(zero);
    expect(countdownParts(target, at('2027-01-01T00:00:00Z'))).toEqual(zero);
  });

  it('never reads all zeros before the target (a partial second counts as one)', () => {
    expect(countdownParts(1_000, 999)).toEqual({
      days: 0,
      hours: 0,
      minutes: 0,
      seconds: 1,
      launched: false,
    });
    expect(countdownParts(DAY_MS, 1)).toMatchObject({ days: 1, hours: 0, seconds: 0 });
  });

  it('always adds back up to the remaining whole seconds', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 400 * DAY_MS }), (remaining) => {
        const p = countdownParts(remaining, 0);
        expect(p.hours).toBeLessThan(24);
        expect(p.minutes).toBeLessThan(60);
        expect(p.seconds).toBeLessThan(60);
        const total = ((p.days * 24 + p.hours) * 60 + p.minutes) * 60 + p.seconds;
        expect(total).toBe(Math.ceil(remaining / 1000));
      }),
    );
  });
});

describe('pad2', () => {
  it('pads each unit to two digits', () => {
    expect(pad2(0)).toBe('00');
    expect(pad2(7)).toBe('07');
    expect(pad2(59)).toBe('59');
    expect(pad2(123)).toBe('123');
  });
});

describe('nextWeeklyOccurrence (Sundays 20:00 New York)', () => {
  it.each([
    {
      // 2026-03-08 02:00 EST jumps to 03:00 EDT; that Sunday's 20:00 EDT is 00:00 UTC Monday.
      change: 'spring-forward',
      before: '2026-03-08T06:59:00Z', // 01:59 EST
      after: '2026-03-08T07:01:00Z', // 03:01 EDT
      expected: '2026-03-09T00:00:00Z',
      // 18:01 on the wall, but only 17:01 really elapses because the night lost an hour.
      fromBefore: { days: 0, hours: 17, minutes: 1 },
      fromAfter: { days: 0, hours: 16, minutes: 59 },
    },
    {
      // 2026-11-01 02:00 EDT falls back to 01:00 EST; that Sunday's 20:00 EST is 01:00 UTC Monday.
      change: 'fall-back',
      before: '2026-11-01T05:30:00Z', // 01:30 EDT
      after: '2026-11-01T06:30:00Z', // 01:30 EST
      expected: '2026-11-02T01:00:00Z',
      fromBefore: { days: 0, hours: 19, minutes: 30 },
      fromAfter: { days: 0, hours: 18, minutes: 30 },
    },
  ])(
    'lands on 20:00 local time just before and just after the $change switch',
    ({ before, after, expected, fromBefore, fromAfter }) => {
      const target = at(expected);
      expect(nextWeeklyOccurrence(at(before), sundayEightPmNewYork)).toBe(target);
      expect(nextWeeklyOccurrence(at(after), sundayEightPmNewYork)).toBe(target);
      expect(wallClock(target, 'America/New_York')).toEqual({ weekday: 0, hour: 20, minute: 0 });
      expect(countdownParts(target, at(before))).toMatchObject(fromBefore);
      expect(countdownParts(target, at(after))).toMatchObject(fromAfter);
    },
  );

  it('uses the offset of the target week, not of now, across a switch during the week', () => {
    // From a Tuesday in EST, the next Sunday (8 March) is already in EDT.
    expect(nextWeeklyOccurrence(at('2026-03-03T12:00:00Z'), sundayEightPmNewYork)).toBe(
      at('2026-03-09T00:00:00Z'),
    );
    // The Sunday before the switch is still EST (UTC-5).
    expect(nextWeeklyOccurrence(at('2026-02-26T12:00:00Z'), sundayEightPmNewYork)).toBe(
      at('2026-03-02T01:00:00Z'),
    );
    // From a Tuesday in EDT, the next Sunday (1 November) is already back in EST.
    expect(nextWeeklyOccurrence(at('2026-10-27T12:00:00Z'), sundayEightPmNewYork)).toBe(
      at('2026-11-02T01:00:00Z'),
    );
  });

  it('is strictly after now: at the moment itself it moves on to the next week', () => {
    const moment = at('2026-06-08T00:00:00Z'); // Sunday 7 June 20:00 EDT
    expect(nextWeeklyOccurrence(moment - 1, sundayEightPmNewYork)).toBe(moment);
    expect(nextWeeklyOccurrence(moment, sundayEightPmNewYork)).toBe(moment + WEEK_MS);
  });

  it('handles a Sunday evening in New York that is already Monday in UTC', () => {
    // 21:00 EDT Sunday 7 June = 01:00 UTC Monday: the next one is a week after 20:00 that day.
    expect(nextWeeklyOccurrence(at('2026-06-08T01:00:00Z'), sundayEightPmNewYork)).toBe(
      at('2026-06-15T00:00:00Z'),
    );
  });

  it('works in the southern hemisphere (Sydney switches in April and October)', () => {
    const schedule = { weekday: 0, hour: 20, minute: 0, timeZone: 'Australia/Sydney' };
    // Sunday 5 April 2026: 03:00 AEDT falls back to 02:00 AEST; 20:00 AEST = 10:00 UTC.
    expect(nextWeeklyOccurrence(at('2026-04-04T12:00:00Z'), schedule)).toBe(
      at('2026-04-05T10:00:00Z'),
    );
    // Sunday 4 October 2026: 02:00 AEST springs to 03:00 AEDT; 20:00 AEDT = 09:00 UTC.
    expect(nextWeeklyOccurrence(at('2026-10-03T12:00:00Z'), schedule)).toBe(
      at('2026-10-04T09:00:00Z'),
    );
  });

  it('always returns the requested wall-clock time within the coming week', () => {
    const zones = [
      'America/New_York',
      'Europe/London',
      'Australia/Sydney',
      'Asia/Kolkata',
      'Pacific/Chatham',
      'UTC',
    ];
    fc.assert(
      fc.property(
        fc.integer({ min: at('2000-01-01T00:00:00Z'), max: at('2040-01-01T00:00:00Z') }),
        fc.constantFrom(...zones),
        fc.integer({ min: 0, max: 6 }),
        // Hours clear of the 01:00-03:59 window where these zones change their clocks.
        fc.integer({ min: 4, max: 23 }),
        fc.integer({ min: 0, max: 59 }),
        (now, timeZone, weekday, hour, minute) => {
          const next = nextWeeklyOccurrence(now, { weekday, hour, minute, timeZone });
          expect(next).toBeGreaterThan(now);
          expect(next - now).toBeLessThanOrEqual(WEEK_MS + HOUR_MS);
          expect(wallClock(next, timeZone)).toEqual({ weekday, hour, minute });
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe('zonedTimeToUtcMs', () => {
  it('moves a time skipped by spring-forward ahead by the gap', () => {
    const wall = { year: 2026, month: 3, day: 8, hour: 2, minute: 30, second: 0 };
    expect(zonedTimeToUtcMs(wall, 'America/New_York')).toBe(at('2026-03-08T07:30:00Z'));
  });

  it('picks the earlier of two instants for a time repeated by fall-back', () => {
    const wall = { year: 2026, month: 11, day: 1, hour: 1, minute: 30, second: 0 };
    expect(zonedTimeToUtcMs(wall, 'America/New_York')).toBe(at('2026-11-01T05:30:00Z'));
  });
});

describe('weekly challenge boundary (Monday 00:00 UTC)', () => {
  it('puts Sunday 23:59 UTC in the old week and Monday 00:00 UTC in the new one', () => {
    const sundayLate = at('2026-03-08T23:59:59.999Z');
    const monday = at('2026-03-09T00:00:00Z');
    expect(weekStartUtc(sundayLate)).toBe(at('2026-03-02T00:00:00Z'));
    expect(nextWeekStartUtc(sundayLate)).toBe(monday);
    expect(weekStartUtc(monday)).toBe(monday);
    expect(nextWeekStartUtc(monday)).toBe(at('2026-03-16T00:00:00Z'));
    expect(isoWeekId(sundayLate)).toBe('2026-W10');
    expect(isoWeekId(monday)).toBe('2026-W11');
  });

  it('numbers weeks across the year boundary by the ISO week-year', () => {
    // 2026 starts on a Thursday, so it has 53 ISO weeks.
    expect(isoWeekId(at('2026-12-31T12:00:00Z'))).toBe('2026-W53');
    expect(isoWeekId(at('2027-01-01T12:00:00Z'))).toBe('2026-W53');
    expect(isoWeekId(at('2027-01-03T23:59:59Z'))).toBe('2026-W53');
    expect(isoWeekId(at('2027-01-04T00:00:00Z'))).toBe('2027-W01');
    expect(isoWeekId(at('2024-12-30T00:00:00Z'))).toBe('2025-W01');
    expect(isoWeekId(at('2021-01-03T12:00:00Z'))).toBe('2020-W53');
    expect(isoWeekId(at('2026-11-18T09:00:00Z'))).toBe('2026-W47');
    expect(nextWeekStartUtc(at('2026-12-31T12:00:00Z'))).toBe(at('2027-01-04T00:00:00Z'));
  });

  it('parses week ids back to the Monday they start on', () => {
    expect(parseIsoWeekId('2020-W53')).toBe(at('2020-12-28T00:00:00Z'));
    expect(parseIsoWeekId('2026-W53')).toBe(at('2026-12-28T00:00:00Z'));
    expect(parseIsoWeekId('2027-W01')).toBe(at('2027-01-04T00:00:00Z'));
    expect(parseIsoWeekId('2025-W01')).toBe(at('2024-12-30T00:00:00Z'));
    expect(parseIsoWeekId('2026-W47')).toBe(at('2026-11-16T00:00:00Z'));
  });

  it('rejects malformed ids and weeks a year does not have', () => {
    for (const bad of [
      '',
      '2026',
      '2026-47',
      '2026W47',
      '2026-w47',
      ' 2026-W47',
      '2026-W47 ',
      '2026-W7',
      '2026-W00',
      '2026-W54',
      '2021-W53',
      '2027-W53',
      'abcd-Wef',
    ]) {
      expect(() => parseIsoWeekId(bad), bad).toThrow(RangeError);
    }
  });

  it('round-trips any instant through its week id', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: at('1970-01-05T00:00:00Z'), max: at('2100-01-01T00:00:00Z') }),
        (ms) => {
          const start = weekStartUtc(ms);
          expect(new Date(start).getUTCDay()).toBe(1);
          expect(start % DAY_MS).toBe(0);
          expect(start).toBeLessThanOrEqual(ms);
          expect(ms).toBeLessThan(start + WEEK_MS);
          expect(parseIsoWeekId(isoWeekId(ms))).toBe(start);
        },
      ),
    );
  });

  it('finds the week start for instants before 1970 too', () => {
    expect(weekStartUtc(at('1969-12-31T12:00:00Z'))).toBe(at('1969-12-29T00:00:00Z'));
  });
});

describe('relativeDayLabel', () => {
  const now = at('2026-05-10T12:00:00Z');

  it('reads Today, Yesterday and N days ago by calendar day', () => {
    expect(relativeDayLabel(at('2026-05-10T00:00:00Z'), now, 'UTC')).toBe('Today');
    expect(relativeDayLabel(at('2026-05-09T23:59:59Z'), now, 'UTC')).toBe('Yesterday');
    expect(relativeDayLabel(at('2026-05-09T00:00:00Z'), now, 'UTC')).toBe('Yesterday');
    expect(relativeDayLabel(at('2026-05-08T23:00:00Z'), now, 'UTC')).toBe('2 days ago');
    expect(relativeDayLabel(at('2026-05-03T00:00:00Z'), now, 'UTC')).toBe('7 days ago');
  });

  it('falls back to the locale date after seven days', () => {
    expect(relativeDayLabel(at('2026-05-02T10:00:00Z'), now, 'UTC', 'en-US')).toBe('5/2/2026');
    expect(relativeDayLabel(at('2026-05-02T10:00:00Z'), now, 'UTC', 'en-GB')).toBe('02/05/2026');
  });

  it('counts days in the given zone', () => {
    const created = at('2026-05-10T02:00:00Z'); // still 9 May in New York
    expect(relativeDayLabel(created, now, 'UTC')).toBe('Today');
    expect(relativeDayLabel(created, now, 'America/New_York')).toBe('Yesterday');
  });

  it('treats a slightly future time (clock skew) as Today', () => {
    expect(relativeDayLabel(now + 5 * MINUTE_MS, now, 'UTC')).toBe('Today');
  });
});

describe('formatInZone', () => {
  it('shows the launch in Sydney time with the zone name', () => {
    expect(formatInZone(at('2025-09-30T11:00:00Z'), 'Australia/Sydney', 'en-AU')).toBe(
      '30 Sept 2025, 9:00 pm AEST',
    );
  });

  it('follows daylight saving in the zone name', () => {
    expect(formatInZone(at('2025-12-01T10:00:00Z'), 'Australia/Sydney', 'en-AU')).toBe(
      '1 Dec 2025, 9:00 pm AEDT',
    );
    expect(formatInZone(at('2026-03-09T00:00:00Z'), 'America/New_York', 'en-US')).toBe(
      'Mar 8, 2026, 8:00 PM EDT',
    );
  });
});

describe('formatWeekdayTime', () => {
  it('names the weekday, time and zone of the giveaway in New York, across daylight saving', () => {
    const winter = nextWeeklyOccurrence(at('2026-11-18T12:00:00Z'), sundayEightPmNewYork);
    const summer = nextWeeklyOccurrence(at('2026-07-01T12:00:00Z'), sundayEightPmNewYork);
    expect(formatWeekdayTime(winter, 'America/New_York', 'en-US')).toBe('Sunday, 8:00 PM EST');
    expect(formatWeekdayTime(summer, 'America/New_York', 'en-US')).toBe('Sunday, 8:00 PM EDT');
  });

  it('shows the same instant in another zone, on its own weekday', () => {
    const winter = nextWeeklyOccurrence(at('2026-11-18T12:00:00Z'), sundayEightPmNewYork);
    expect(formatWeekdayTime(winter, 'Asia/Tokyo', 'en-US')).toBe('Monday, 10:00 AM GMT+9');
    expect(formatWeekdayTime(winter, 'Europe/Berlin', 'en-GB')).toBe('Monday, 02:00 CET');
  });
});

describe('clockOffsetMs', () => {
  it('takes the midpoint of the round trip', () => {
    expect(clockOffsetMs(1_000, 1_200, 61_100)).toBe(60_000);
    expect(clockOffsetMs(1_000, 1_000, 1_000)).toBe(0);
    expect(clockOffsetMs(10_000, 10_400, 5_200)).toBe(-5_000);
  });

  it('corrects a device clock to within half the round trip of the server', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: -10 * DAY_MS, max: 10 * DAY_MS }), // device clock error
        fc.integer({ min: 0, max: 5_000 }), // round trip
        fc.double({ min: 0, max: 1, noNaN: true }), // when in the trip the server read its clock
        (error, trip, fraction) => {
          const trueSent = 1_800_000_000_000;
          const serverMs = trueSent + Math.round(trip * fraction);
          const offset = clockOffsetMs(trueSent - error, trueSent - error + trip, serverMs);
          const correctedAtServerRead = trueSent - error + Math.round(trip * fraction) + offset;
          expect(Math.abs(correctedAtServerRead - serverMs)).toBeLessThanOrEqual(trip / 2 + 1);
        },
      ),
    );
  });
});

describe('msUntilNextSecond', () => {
  it('waits until the next whole second', () => {
    expect(msUntilNextSecond(1_000)).toBe(1_000);
    expect(msUntilNextSecond(1_001)).toBe(999);
    expect(msUntilNextSecond(1_999)).toBe(1);
    expect(msUntilNextSecond(-1)).toBe(1);
  });
});

describe('zoneCity', () => {
  it('names the city of a zone', () => {
    expect(zoneCity('America/New_York')).toBe('New York');
    expect(zoneCity('Australia/Sydney')).toBe('Sydney');
    expect(zoneCity('America/Argentina/Buenos_Aires')).toBe('Buenos Aires');
    expect(zoneCity('UTC')).toBe('UTC');
  });
});
