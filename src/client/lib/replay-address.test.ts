import { describe, expect, it } from 'vitest';
import { replayPageAddress } from '#shared/api/paths.ts';
import { entryIdFromHash } from './replay-address.ts';

describe('the replay address', () => {
  it('names the entry the server prints (prize:review) and the Watch button sets', () => {
    expect(new URL(replayPageAddress(42), 'https://example.test').hash).toBe('#replay-42');
    expect(entryIdFromHash(new URL(replayPageAddress(42), 'https://example.test').hash)).toBe(42);
  });

  it('opens nothing for any other hash', () => {
    for (const hash of [
      '',
      '#game',
      '#replay-',
      '#replay-0',
      '#replay-07',
      '#replay-1x',
      '#replay--3',
      '#replay-1e3',
      '#replay-99999999999999999',
    ]) {
      expect(entryIdFromHash(hash), hash).toBeNull();
    }
  });
});
