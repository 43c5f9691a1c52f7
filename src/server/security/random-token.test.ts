import { describe, expect, it } from 'vitest';
import { randomToken } from './random-token.ts';

describe('randomToken', () => {
  it('hands out each drawn byte once, across refills of the pool', () => {
    // 1,000 tokens of 32 bytes span eight refills of the 4 KiB pool; tokens of odd sizes make
    // draws straddle a refill's edge.
    const tokens = Array.from({ length: 1_000 }, (_, i) => randomToken(i % 7 === 0 ? 13 : 32));
    expect(new Set(tokens).size).toBe(tokens.length);
    for (const [i, token] of tokens.entries()) {
      expect(Buffer.from(token, 'base64url')).toHaveLength(i % 7 === 0 ? 13 : 32);
      expect(token).toMatch(/^[\w-]+$/);
    }
  });

  it('draws bytes, not zeros: a wiped pool is never handed out again', () => {
    const bytes = Buffer.concat(
      Array.from({ length: 512 }, () => Buffer.from(randomToken(32), 'base64url')),
    );
    // 16 KiB of random bytes hold every byte value; zeros at about 1/256 of them, not more.
    expect(new Set(bytes).size).toBe(256);
    expect(bytes.filter((b) => b === 0).length).toBeLessThan(bytes.length / 64);
  });

  it('refuses a draw larger than its pool', () => {
    expect(() => randomToken(4097)).toThrow(RangeError);
  });
});
