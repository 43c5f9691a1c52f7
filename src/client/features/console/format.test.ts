import { describe, expect, it } from 'vitest';
import { when } from './format.ts';

/** The console's pages, as text: its own folder and the Prize week page composed in app/pages. */
const SOURCES = import.meta.glob<string>(
  ['./*.{ts,tsx}', '!./*.test.ts', '../../app/pages/prize-week-page.tsx'],
  { query: '?raw', import: 'default', eager: true },
);

describe("the console's one time format", () => {
  it('is UTC to the minute, whatever the browser runs in', () => {
    expect(when(Date.UTC(2026, 10, 28, 23, 59, 59))).toBe('2026-11-28 23:59 UTC');
  });

  it("is the only one: no console page writes a time in the browser's locale", () => {
    expect(Object.keys(SOURCES)).toContain('./prize-payment.tsx');
    const local = /toLocale(Date|Time)?String|Intl\.DateTimeFormat|\.get(Hours|Minutes|Date|Day)\(/;
    const offenders = Object.entries(SOURCES).filter(([, text]) => local.test(text));
    expect(offenders.map(([file]) => file)).toEqual([]);
  });
});
