import { describe, expect, it } from 'vitest';
import { createPrng, isUint32, nextInt, nextUint32 } from './prng.ts';

// mulberry32 written again with BigInt arithmetic, so the fast 32-bit version is checked against
// an implementation that shares none of its tricks (Math.imul, `| 0`, `>>> 0`).
function referenceSequence(seed: number, count: number): number[] {
  const mask = 0xffffffffn;
  const imul = (a: bigint, b: bigint) => (a * b) & mask;
  let state = BigInt(seed);
  const out: number[] = [];
  for (let i = 0; i < count; i++) {
    state = (state + 0x6d2b79f5n) & mask;
    let t = state;
    t = imul(t ^ (t >> 15n), t | 1n);
    t = (t ^ ((t + imul(t ^ (t >> 7n), t | 61n)) & mask)) & mask;
    out.push(Number((t ^ (t >> 14n)) & mask));
  }
  return out;
}

function draw(seed: number, count: number): number[] {
  const prng = createPrng(seed);
  return Array.from({ length: count }, () => nextUint32(prng));
}

describe('prng', () => {
  it('matches an independent mulberry32 for many seeds', () => {
    for (const seed of [0, 1, 42, 0x7fffffff, 0x80000000, 0xdeadbeef, 0xffffffff]) {
      expect(draw(seed, 500)).toEqual(referenceSequence(seed, 500));
    }
  });

  // 2693262067 / 2^32 = 0.6270739405881613, the widely published first mulberry32(1) output.
  it('keeps its first numbers fixed, since stored runs replay from them', () => {
    expect(draw(1, 3)).toEqual(referenceSequence(1, 3));
    expect(draw(1, 3)).toEqual([2693262067, 11749833, 2265367787]);
  });

  it('gives the same sequence for the same seed and different ones for different seeds', () => {
    expect(draw(123456, 100)).toEqual(draw(123456, 100));
    expect(draw(123456, 100)).not.toEqual(draw(123457, 100));
  });

  it('keeps all its state in the object it returns', () => {
    const a = createPrng(9);
    nextUint32(a);
    const b = { state: a.state };
    expect([nextUint32(a), nextUint32(a)]).toEqual([nextUint32(b), nextUint32(b)]);
  });

  it('draws unsigned 32-bit integers', () => {
    for (const value of draw(77, 2000)) expect(isUint32(value)).toBe(true);
  });

  it('draws integers in [0, n) with every value about equally often', () => {
    const prng = createPrng(2024);
    const counts = new Array<number>(7).fill(0);
    const draws = 70_000;
    for (let i = 0; i < draws; i++) {
      const value = nextInt(prng, 7);
      if (!(Number.isInteger(value) && value >= 0 && value < 7)) throw new Error(`bad ${value}`);
      counts[value]! += 1;
    }
    for (const count of counts) expect(Math.abs(count - draws / 7)).toBeLessThan(draws / 7 / 20);
  });

  it('refuses seeds that are not unsigned 32-bit integers', () => {
    for (const seed of [-1, 1.5, 2 ** 32, Number.NaN, Infinity]) {
      expect(() => createPrng(seed)).toThrow(RangeError);
    }
    expect(() => createPrng(0)).not.toThrow();
    expect(() => createPrng(2 ** 32 - 1)).not.toThrow();
  });
});
