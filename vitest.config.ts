import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: [
      'src/**/*.test.{ts,tsx}',
      'scripts/**/*.test.ts',
      'tests/scale/**/*.test.ts',
      'tests/faults/**/*.test.ts',
    ],
    // API suites create their own databases; a few workers keep the 2-core machine responsive.
    pool: 'forks',
    // A worker imports the app's modules once for all its files, not once per file: the suite's
    // CPU went from 580 s to 360 s (import 240 s -> 13 s), and no file relies on a fresh module
    // state (each test app builds its own deps; docs/decisions/025).
    isolate: false,
    // One migrated database per engine per run, which each test app copies (decision 025).
    globalSetup: ['tests/support/template-databases.ts'],
    maxWorkers: 2,
    testTimeout: 20_000,
    hookTimeout: 60_000,
  },
});
