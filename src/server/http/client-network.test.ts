import { describe, expect, it } from 'vitest';
import { networkOf, networkWidths, WIDE_NETWORK_SHARE } from './client-network.ts';

describe('networkOf', () => {
  it('keeps an IPv4 address whole, also when mapped into IPv6', () => {
    expect(networkOf('203.0.113.7')).toBe('203.0.113.7');
    expect(networkOf('::ffff:203.0.113.7')).toBe('203.0.113.7');
  });

  it('folds every address of one /64 into one client key', () => {
    const a = networkOf('2001:db8:1:2:aaaa:bbbb:cccc:dddd');
    expect(a).toBe('2001:db8:1:2::/64');
    expect(networkOf('2001:db8:1:2::1')).toBe(a);
    expect(networkOf('2001:db8:1:3::1')).not.toBe(a);
  });

  it('folds a whole /48 into one subscriber key', () => {
    const a = networkOf('2001:db8:1:2::1', 'subscriber');
    expect(a).toBe('2001:db8:1::/48');
    expect(networkOf('2001:db8:1:ffff::9', 'subscriber')).toBe(a);
    expect(networkOf('2001:db8:2::1', 'subscriber')).not.toBe(a);
  });
});

describe('networkWidths', () => {
  it('counts an IPv6 /64 also at its /48, with a few /64s of room', () => {
    expect(networkWidths('2001:db8:1:2::/64')).toEqual([
      { network: '2001:db8:1:2::/64', share: 1 },
      { network: '2001:db8:1::/48', share: WIDE_NETWORK_SHARE },
    ]);
    expect(WIDE_NETWORK_SHARE).toBeGreaterThan(1);
    expect(WIDE_NETWORK_SHARE).toBeLessThanOrEqual(8);
  });

  it('counts an IPv4 address, a /48 and anything it did not write at one width', () => {
    for (const network of ['203.0.113.7', '2001:db8:1::/48', 'junk/64', '2001:db8:1:2::1/64']) {
      expect(networkWidths(network)).toEqual([{ network, share: 1 }]);
    }
  });
});
