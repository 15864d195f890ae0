import { isInSubnet, type ParsedAddress, parseAddress } from '../evaluation/ip-address-match.js';

/** `::ffff:10.0.0.1` is how Node reports an IPv4 peer on a dual-stack socket. */
const MAPPED_V4 = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i;

/**
 * A test of whether an address lies in any of the given addresses or CIDR ranges (IPv4 or IPv6;
 * IPv4-mapped IPv6 addresses count as their IPv4 form). Throws naming the first entry that is
 * neither, so a typo in a setting stops the start instead of trusting nothing or everything.
 */
export function createAddressRanges(entries: readonly string[]): (address: string) => boolean {
  const ranges: ParsedAddress[] = entries.map((entry) => {
    const parsed = parseAddress(entry.trim());
    if (parsed === null) throw new Error(`"${entry}" is not an IP address or CIDR range.`);
    return parsed;
  });
  return (address) => {
    const parsed = parseAddress(address.replace(MAPPED_V4, '$1'));
    return parsed !== null && ranges.some((range) => range.v4 === parsed.v4 && isInSubnet(parsed, range));
  };
}
