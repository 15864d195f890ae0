import { Address4, Address6 } from 'ip-address';

/**
 * The key per-client limits count an address under: an IPv4 address as itself (also when it comes
 * IPv4-mapped, `::ffff:203.0.113.9`), an IPv6 address by its /64 network, since one host
 * usually holds a whole /64 and could otherwise take a fresh share per address. Null when there
 * is no address; anything unparsable counts as itself.
 */
export function clientKey(address: string | null | undefined): string | null {
  const raw = address?.trim();
  if (!raw) return null;
  if (Address4.isValid(raw)) return raw;
  try {
    const v6 = new Address6(raw);
    if (v6.is4()) return v6.to4().correctForm();
    return `${new Address6(`${v6.correctForm()}/64`).startAddress().correctForm()}/64`;
  } catch {
    return raw;
  }
}
