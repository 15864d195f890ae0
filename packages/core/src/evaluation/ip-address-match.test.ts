// The word-based matcher must answer exactly what `ip-address` (used by unleash-client) answers.
import { Address4, Address6 } from 'ip-address';
import { describe, expect, it } from 'vitest';
import { isInSubnet, isSameAddress, parseAddress4, parseAddress6 } from './ip-address-match.js';

const V4 = [
  '10.0.0.1',
  '10.1.2.3',
  '10.255.255.255',
  '11.0.0.0',
  '192.168.1.77',
  '0.0.0.0',
  '255.255.255.255',
  '10.1.2.3/8',
  '10.1.2.0/24',
];
const V4_RANGES = [
  '10.0.0.0/8',
  '10.1.2.0/24',
  '10.1.2.3',
  '10.1.2.3/32',
  '0.0.0.0/0',
  '192.168.0.0/16',
  '10.1.2.3/31',
  '10.1.2.128/25',
];
const V6 = [
  '2001:db8::1',
  '2001:db8:0:1::42',
  '2001:db9::1',
  '::1',
  '::ffff:10.1.2.3',
  'fe80::1%eth0',
  '2001:db8::/48',
];
const V6_RANGES = [
  '2001:db8::/32',
  '2001:db8::1',
  '2001:db8:0:1::/64',
  '::/0',
  '::ffff:0:0/96',
  'fe80::/10',
  '2001:db8::1/127',
];

describe('ip-address-match', () => {
  it('agrees with ip-address on IPv4 subnet membership and equality', () => {
    for (const raw of V4) {
      for (const rangeRaw of V4_RANGES) {
        const [address, range] = [new Address4(raw), new Address4(rangeRaw)];
        const [parsed, parsedRange] = [parseAddress4(raw)!, parseAddress4(rangeRaw)!];
        expect(isInSubnet(parsed, parsedRange), `${raw} in ${rangeRaw}`).toBe(address.isInSubnet(range));
        expect(isSameAddress(parsed, parsedRange), `${raw} = ${rangeRaw}`).toBe(
          address.correctForm() === range.correctForm(),
        );
      }
    }
  });

  it('agrees with ip-address on IPv6 subnet membership and equality', () => {
    for (const raw of V6) {
      for (const rangeRaw of V6_RANGES) {
        const [address, range] = [new Address6(raw), new Address6(rangeRaw)];
        const [parsed, parsedRange] = [parseAddress6(raw)!, parseAddress6(rangeRaw)!];
        expect(isInSubnet(parsed, parsedRange), `${raw} in ${rangeRaw}`).toBe(address.isInSubnet(range));
        expect(isSameAddress(parsed, parsedRange), `${raw} = ${rangeRaw}`).toBe(
          address.correctForm() === range.correctForm(),
        );
      }
    }
  });

  it('rejects what ip-address rejects', () => {
    for (const raw of ['127.invalid', '10.0.0.0/33', '010.0.0.1', '', '1.2.3'])
      expect(parseAddress4(raw)).toBeNull();
    for (const raw of ['bad::cidr', '2001:db8::/129', 'gggg::1', '']) expect(parseAddress6(raw)).toBeNull();
  });
});
