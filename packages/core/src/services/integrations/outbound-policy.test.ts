import { describe, expect, it } from 'vitest';
import { createOutboundPolicy, parseAllowedHosts } from './outbound-policy.js';

describe('outbound policy', () => {
  const policy = createOutboundPolicy();

  it('F6: refuses loopback, private, link-local, CGNAT, multicast and unspecified addresses by default', () => {
    const refused = [
      '127.0.0.1',
      '127.255.0.9',
      '10.1.2.3',
      '172.16.0.1',
      '172.31.255.255',
      '192.168.1.1',
      '169.254.169.254',
      '100.64.0.1',
      '100.127.255.254',
      '224.0.0.1',
      '239.255.255.250',
      '255.255.255.255',
      '0.0.0.0',
      '::',
      '::1',
      'fc00::1',
      'fd12:3456::1',
      'fe80::1',
      'ff02::1',
    ];
    for (const address of refused) expect(policy.refusal(address, address), address).not.toBeNull();
    expect(policy.refusal('169.254.169.254', 'metadata')).toContain('link-local');
    for (const address of ['93.184.216.34', '8.8.8.8', '172.32.0.1', '100.128.0.1', '2606:4700::1111'])
      expect(policy.refusal(address, address), address).toBeNull();
  });

  it('F6: refuses IPv4-mapped, IPv4-compatible and NAT64 forms of refused IPv4 addresses', () => {
    for (const address of [
      '::ffff:127.0.0.1',
      '::ffff:7f00:1',
      '::ffff:169.254.169.254',
      '::10.0.0.1',
      '64:ff9b::a00:1',
    ])
      expect(policy.refusal(address, address), address).toMatch(/in IPv6 form/);
    expect(policy.refusal('::ffff:8.8.8.8', 'x')).toBeNull();
  });

  it('F6: the allow-list lets in host names, addresses and CIDR ranges, and refuses a malformed entry', () => {
    const allowing = createOutboundPolicy(
      parseAllowedHosts(' hooks.internal , 127.0.0.1,10.0.0.0/8, fd00::/8,'),
    );
    expect(allowing.refusal('192.168.0.7', 'Hooks.Internal')).toBeNull();
    expect(allowing.refusal('192.168.0.7', 'other.internal')).toContain('private');
    expect(allowing.refusal('127.0.0.1', '127.0.0.1')).toBeNull();
    expect(allowing.refusal('::ffff:127.0.0.1', 'localhost')).toBeNull();
    expect(allowing.refusal('127.0.0.2', '127.0.0.2')).toContain('loopback');
    expect(allowing.refusal('10.200.0.1', 'x')).toBeNull();
    expect(allowing.refusal('fd00::5', 'x')).toBeNull();
    expect(allowing.refusal('::1', 'x')).toContain('loopback');
    expect(() => createOutboundPolicy(['http://hooks.internal/'])).toThrow(/not a host name/);
    expect(() => createOutboundPolicy(['10.0.0.0/40'])).toThrow(/not a host name/);
  });
});
