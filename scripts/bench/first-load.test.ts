import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  buildClientForMeasurement,
  FIRST_LOAD_BUDGET_BYTES,
  formatKb,
  measureFirstLoad,
  type FirstLoadReport,
} from './first-load.ts';

let distDir: string;
let report: FirstLoadReport;
let sources: Map<string, string>;

beforeAll(async () => {
  distDir = await buildClientForMeasurement();
  report = measureFirstLoad(distDir);
  sources = new Map(
    report.files.map((f) => [f.file, fs.readFileSync(path.join(distDir, f.file), 'utf8')]),
  );
}, 180_000);
afterAll(() => fs.rmSync(distDir, { recursive: true, force: true }));

describe('the first load', () => {
  it(`stays within ${formatKb(FIRST_LOAD_BUDGET_BYTES)} of gzipped JavaScript`, () => {
    expect(report.files.length).toBeGreaterThan(0);
    expect(report.jsGzipBytes, formatKb(report.jsGzipBytes)).toBeLessThanOrEqual(
      FIRST_LOAD_BUDGET_BYTES,
    );
  });

  it('leaves the gallery, the game, the leaderboard, zod, the query client and Radix to load on demand', () => {
    const firstLoad = [...sources.values()].join('\n');
    // Texts only these parts carry, so a static import of any of them fails here.
    expect(firstLoad).not.toContain('Be the first to upload a meme!');
    expect(firstLoad).not.toContain('Obstacles Passed');
    expect(firstLoad).not.toContain('Failed to load leaderboard');
    expect(firstLoad).not.toContain('Invalid input');
    expect(firstLoad).not.toContain('No QueryClient set');
    expect(firstLoad).not.toContain('DialogContent');
    expect(firstLoad).not.toContain('DropdownMenuContent');
    expect(firstLoad).not.toContain('ToastViewport');
    // The live event stream connects from the parts that load after the first paint (021).
    expect(firstLoad).not.toContain('/api/events');
    // ...while the header and the hero are there.
    expect(firstLoad).toContain('Launching soon on ');
    expect(firstLoad).toContain('Sign Up');
    // And the rest was built, as chunks of their own.
    expect(report.allJsGzipBytes).toBeGreaterThan(report.jsGzipBytes);
    // A production build: React's development build alone would break the budget.
    expect(firstLoad).not.toContain('jsxDEV');
  });
});
