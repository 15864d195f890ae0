import { describe, expect, it } from 'vitest';
import { clientKey } from './client-key.js';

describe('clientKey', () => {
  it('F8: keeps IPv4 as is, unwraps IPv4-mapped addresses and counts IPv6 by its /64', () => {
    expect(clientKey('203.0.113.9')).toBe('203.0.113.9');
    expect(clientKey('::ffff:203.0.113.9')).toBe('203.0.113.9');
    expect(clientKey('2001:db8:1:2:aaaa::1')).toBe('2001:db8:1:2::/64');
    expect(clientKey('2001:db8:1:2:ffff:1:2:3')).toBe(clientKey('2001:db8:1:2::9'));
    expect(clientKey('2001:db8:1:3::9')).not.toBe(clientKey('2001:db8:1:2::9'));
    expect(clientKey('::1')).toBe('::/64');
    expect(clientKey(undefined)).toBeNull();
    expect(clientKey('')).toBeNull();
    expect(clientKey('not an address')).toBe('not an address');
  });
});
