// mulberry32: a 32-bit state generator built only from integer operations (Math.imul, shifts,
// xor), so every JavaScript engine produces the same sequence for the same seed.

export interface Prng {
  /** Current 32-bit state; advancing it is the only side effect of drawing a number. */
  state: number;
}

const UINT32_RANGE = 4294967296;

export function isUint32(value: unknown): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value >= 0 && value < UINT32_RANGE;
}

export function createPrng(seed: number): Prng {
  if (!isUint32(seed)) throw new RangeError(`seed must be an integer in [0, 2^32), got ${seed}`);
  return { state: seed | 0 };
}

/** Next number in [0, 2^32). */
export function nextUint32(prng: Prng): number {
  prng.state = (prng.state + 0x6d2b79f5) | 0;
  let t = prng.state;
  t = Math.imul(t ^ (t >>> 15), t | 1);
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
  return (t ^ (t >>> 14)) >>> 0;
}

/**
 * Next integer in [0, n). Scaling instead of `%` avoids modulo bias; the product stays below
 * 2^53 for any n < 2^21, so it is exact.
 */
export function nextInt(prng: Prng, n: number): number {
  return Math.floor((nextUint32(prng) * n) / UINT32_RANGE);
}
