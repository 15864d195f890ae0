// Where addons may send requests. Pure: the outbound HTTP implementation resolves names and asks
// this about every address it is about to connect to, so the check and the connection agree.
import {
  isInSubnet,
  type ParsedAddress,
  parseAddress4,
  parseAddress6,
} from '../../evaluation/ip-address-match.js';

/** Ranges refused unless allow-listed, each with what the delivery log says about it. */
const REFUSED_V4: readonly [string, string][] = [
  ['0.0.0.0/8', 'an unspecified ("this network") address'],
  ['10.0.0.0/8', 'a private address'],
  ['100.64.0.0/10', 'a carrier-grade NAT address'],
  ['127.0.0.0/8', 'a loopback address'],
  ['169.254.0.0/16', 'a link-local address (cloud metadata lives here)'],
  ['172.16.0.0/12', 'a private address'],
  ['192.0.0.0/24', 'an IETF protocol address'],
  ['192.168.0.0/16', 'a private address'],
  ['198.18.0.0/15', 'a benchmarking address'],
  ['224.0.0.0/4', 'a multicast address'],
  ['240.0.0.0/4', 'a reserved or broadcast address'],
];
const REFUSED_V6: readonly [string, string][] = [
  ['::/128', 'an unspecified address'],
  ['::1/128', 'a loopback address'],
  ['fc00::/7', 'a private (unique local) address'],
  ['fe80::/10', 'a link-local address'],
  ['fec0::/10', 'a site-local address'],
  ['ff00::/8', 'a multicast address'],
];
/** IPv6 forms that carry an IPv4 address in their last 32 bits: that address is what gets reached. */
const EMBEDDING_V4: readonly string[] = ['::ffff:0:0/96', '::/96', '64:ff9b::/96', '64:ff9b:1::/48'];

const parseRanges = (list: readonly [string, string][], parse: (raw: string) => ParsedAddress | null) =>
  list.map(([cidr, why]) => ({ range: parse(cidr) as ParsedAddress, why }));
const refused4 = parseRanges(REFUSED_V4, parseAddress4);
const refused6 = parseRanges(REFUSED_V6, parseAddress6);
const embedding = EMBEDDING_V4.map((cidr) => parseAddress6(cidr) as ParsedAddress);

/** An IP literal as URLs and resolvers write it (IPv6 maybe in brackets); null for a host name. */
export function parseIp(text: string): ParsedAddress | null {
  const bare = text.startsWith('[') && text.endsWith(']') ? text.slice(1, -1) : text;
  if (bare.includes('/')) return null;
  return parseAddress4(bare) ?? (bare.includes(':') ? parseAddress6(bare) : null);
}

const toV4 = (word: number): ParsedAddress => ({ v4: true, words: [word >>> 0], prefix: 32 });

/** The IPv4 address an IPv6 one reaches through (mapped, compatible, NAT64 forms), else itself. */
function effective(address: ParsedAddress): ParsedAddress {
  if (address.v4 || refused6.some((r) => isInSubnet(address, r.range))) return address;
  return embedding.some((range) => isInSubnet(address, range)) ? toV4(address.words[3] as number) : address;
}

/** Why an address is refused by default, or null when it is public. */
function defaultRefusal(address: ParsedAddress): string | null {
  const target = effective(address);
  if (!target.v4) return refused6.find((r) => isInSubnet(target, r.range))?.why ?? null;
  const why = refused4.find((r) => isInSubnet(target, r.range))?.why ?? null;
  return why && !address.v4 ? `${why} in IPv6 form` : why;
}

/** Decides which destinations addons may reach. */
export interface OutboundPolicy {
  /**
   * Why connecting to `address` (an IP literal) for a URL naming `host` is refused, or null when it
   * is allowed: public addresses always, others when the host name, the address or a range holding
   * it is allow-listed.
   */
  refusal(address: string, host: string): string | null;
}

/**
 * Parses `FLAGSTAFF_WEBHOOK_ALLOWED_HOSTS`-style entries: host names (exact, case-insensitive), IP
 * addresses and CIDR ranges. Throws on an entry that is none of these, so a typo fails the start.
 */
export function createOutboundPolicy(allowedHosts: readonly string[] = []): OutboundPolicy {
  const names = new Set<string>();
  const ranges: ParsedAddress[] = [];
  for (const raw of allowedHosts) {
    const entry = raw.trim().toLowerCase();
    if (!entry) continue;
    const range = entry.includes('/') ? (parseAddress4(entry) ?? parseAddress6(entry)) : parseIp(entry);
    if (range) ranges.push(range);
    else if (/^[a-z0-9_]([a-z0-9_-]*[a-z0-9_])?(\.[a-z0-9_]([a-z0-9_-]*[a-z0-9_])?)*\.?$/.test(entry))
      names.add(entry.replace(/\.$/, ''));
    else
      throw new Error(
        `The webhook allow-list entry "${raw.trim()}" is not a host name, an IP address or a CIDR range.`,
      );
  }
  return {
    refusal(address, host) {
      const parsed = parseIp(address);
      if (!parsed) return `"${address}" is not an IP address`;
      const why = defaultRefusal(parsed);
      if (!why) return null;
      const name = host
        .toLowerCase()
        .replace(/^\[|\]$/g, '')
        .replace(/\.$/, '');
      const target = effective(parsed);
      const listed = (a: ParsedAddress) => ranges.some((r) => r.v4 === a.v4 && isInSubnet(a, r));
      if (names.has(name) || listed(parsed) || listed(target)) return null;
      return `${address} is ${why}`;
    },
  };
}

/** Prefix of every refusal the delivery log records. */
export const BLOCKED = 'blocked by the outbound policy';

/** Splits a comma-separated allow-list (the environment variable's form). */
export const parseAllowedHosts = (text: string | undefined): string[] =>
  (text ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
