// IP matching with the answers of `ip-address` (what unleash-client uses) but on 32-bit words: the
// library compares binary strings, which is far too slow to run per flag evaluation. Parsing still
// goes through `ip-address`, so what counts as a valid address or range is exactly the reference's.
import { Address4, Address6 } from 'ip-address';

/** An address or range: its bits as big-endian 32-bit words (1 for IPv4, 4 for IPv6). */
export interface ParsedAddress {
  readonly v4: boolean;
  readonly words: readonly number[];
  /** Prefix length: 32/128 for a plain address. */
  readonly prefix: number;
}

function wordsOf(value: bigint, count: number): number[] {
  const words: number[] = [];
  for (let i = count - 1; i >= 0; i--) words.push(Number((value >> BigInt(32 * i)) & 0xffffffffn));
  return words;
}

/** Parses an IPv4 address or CIDR range; `null` when `ip-address` would reject it. */
export function parseAddress4(raw: string): ParsedAddress | null {
  try {
    const address = new Address4(raw);
    return { v4: true, words: wordsOf(address.bigInt(), 1), prefix: address.subnetMask };
  } catch {
    return null;
  }
}

/** Parses an IPv6 address or CIDR range; `null` when `ip-address` would reject it. */
export function parseAddress6(raw: string): ParsedAddress | null {
  try {
    const address = new Address6(raw);
    return { v4: false, words: wordsOf(address.bigInt(), 4), prefix: address.subnetMask };
  } catch {
    return null;
  }
}

/** Parses a context address the way the IN_CIDR operator does: IPv4 first, then IPv6. */
export function parseAddress(raw: string): ParsedAddress | null {
  return parseAddress4(raw) ?? parseAddress6(raw);
}

function samePrefix(a: readonly number[], b: readonly number[], bits: number): boolean {
  let i = 0;
  for (; bits >= 32; bits -= 32, i++) if (a[i] !== b[i]) return false;
  if (bits === 0) return true;
  const shift = 32 - bits;
  return a[i]! >>> shift === b[i]! >>> shift;
}

/** `address.isInSubnet(range)` of `ip-address`: the address's network lies inside the range. */
export function isInSubnet(address: ParsedAddress, range: ParsedAddress): boolean {
  return address.prefix >= range.prefix && samePrefix(address.words, range.words, range.prefix);
}

/** `correctForm()` equality of `ip-address`: the same address bits, whatever the prefixes. */
export function isSameAddress(address: ParsedAddress, range: ParsedAddress): boolean {
  return samePrefix(address.words, range.words, address.v4 ? 32 : 128);
}
