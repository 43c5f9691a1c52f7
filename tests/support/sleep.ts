/** Resolves after `ms` milliseconds: the one sleep of the tests and benchmarks. */
export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
