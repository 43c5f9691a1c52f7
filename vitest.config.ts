import { defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * The suites that start server processes (tests/scale, tests/faults) go first: they are the
 * longest (30-70 s each) and mostly wait on their processes. Sorted with the rest, by size or by a
 * cache the Node 24 pass wrote without them, they started last and ran alone for the suite's last
 * 40 s (decision 025).
 */
class ProcessSuitesFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const startsProcesses = (file: TestSpecification) =>
      /[\\/]tests[\\/](scale|faults)[\\/]/.test(file.moduleId);
    return [...sorted.filter(startsProcesses), ...sorted.filter((f) => !startsProcesses(f))];
  }
}

export default defineConfig({
  test: {
    include: [
      'src/**/*.test.{ts,tsx}',
      'scripts/**/*.test.ts',
      'tests/scale/**/*.test.ts',
      'tests/faults/**/*.test.ts',
    ],
    // API suites create their own databases. Three workers on the 2-core machine: the suites
    // that start server processes spend most of their time waiting on them (two workers kept
    // the CPU about 65% busy), 170 s against 208 s for two and 166 s for four (decision 025).
    pool: 'forks',
    // A worker imports the app's modules once for all its files, not once per file: the suite's
    // CPU went from 580 s to 360 s (import 240 s -> 13 s), and no file relies on a fresh module
    // state (each test app builds its own deps; docs/decisions/025).
    isolate: false,
    // One migrated database per engine per run, which each test app copies (decision 025), and
    // the server's bundle that nodes and the CLI start from, built once (decision 030).
    globalSetup: ['tests/support/template-databases.ts', 'tests/support/server-bundle.ts'],
    maxWorkers: 3,
    sequence: { sequencer: ProcessSuitesFirst },
    testTimeout: 20_000,
    hookTimeout: 60_000,
  },
});
