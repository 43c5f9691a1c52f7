import { describe, expect, it } from 'vitest';
import { networkOf } from './client-network.ts';

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
