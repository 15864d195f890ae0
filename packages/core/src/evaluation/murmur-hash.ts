// MurmurHash3 x86 32-bit, byte-for-byte what the `murmurhash3js` package computes: it feeds the
// LOW BYTE of every UTF-16 code unit (not UTF-8), so non-ASCII ids must be hashed the same lossy way
// to land in the same bucket as every Unleash SDK.

const C1 = 0xcc9e2d51;
const C2 = 0x1b873593;

/** Seed of rollout buckets (`flexibleRollout`, `gradualRollout*`). */
export const STRATEGY_SEED = 0;
/** Seed of variant buckets. */
export const VARIANT_SEED = 86028157;

function mixK1(k1: number): number {
  k1 = Math.imul(k1, C1);
  k1 = (k1 << 15) | (k1 >>> 17);
  return Math.imul(k1, C2);
}

function mixH1(h1: number, k1: number): number {
  h1 ^= mixK1(k1);
  h1 = (h1 << 13) | (h1 >>> 19);
  return (Math.imul(h1, 5) + 0xe6546b64) | 0;
}

function finish(h1: number, pending: number, pendingBytes: number, length: number): number {
  if (pendingBytes > 0) h1 ^= mixK1(pending);
  h1 ^= length;
  h1 ^= h1 >>> 16;
  h1 = Math.imul(h1, 0x85ebca6b);
  h1 ^= h1 >>> 13;
  h1 = Math.imul(h1, 0xc2b2ae35);
  h1 ^= h1 >>> 16;
  return h1 >>> 0;
}

/** MurmurHash3 x86 32-bit of `key` as `murmurhash3js` computes it (unsigned). */
export function murmurHash3(key: string, seed = 0): number {
  return createPrefixHash('', seed)(key);
}

/**
 * Returns `(id) => murmurHash3(prefix + id, seed)` that never builds the concatenated string: the
 * prefix (`${groupId}:`) is fixed per strategy, so its whole blocks are mixed once here and only the
 * id's bytes are mixed per call.
 */
export function createPrefixHash(prefix: string, seed: number): (id: string) => number {
  let h1 = seed | 0;
  let pending = 0;
  let pendingBytes = 0;
  for (let i = 0; i < prefix.length; i++) {
    pending |= (prefix.charCodeAt(i) & 0xff) << (pendingBytes << 3);
    if (++pendingBytes === 4) {
      h1 = mixH1(h1, pending);
      pending = 0;
      pendingBytes = 0;
    }
  }
  const prefixH1 = h1;
  const prefixPending = pending;
  const prefixPendingBytes = pendingBytes;
  const prefixLength = prefix.length;

  return (id: string): number => {
    let h = prefixH1;
    let k = prefixPending;
    let n = prefixPendingBytes;
    const length = id.length;
    let i = 0;
    // Complete the block the prefix left open, then mix whole 4-byte blocks straight from the id.
    if (n > 0) {
      for (; n < 4 && i < length; i++, n++) k |= (id.charCodeAt(i) & 0xff) << (n << 3);
      if (n < 4) return finish(h, k, n, prefixLength + length);
      h = mixH1(h, k);
    }
    for (; i + 4 <= length; i += 4) {
      h = mixH1(
        h,
        (id.charCodeAt(i) & 0xff) |
          ((id.charCodeAt(i + 1) & 0xff) << 8) |
          ((id.charCodeAt(i + 2) & 0xff) << 16) |
          ((id.charCodeAt(i + 3) & 0xff) << 24),
      );
    }
    k = 0;
    n = 0;
    for (; i < length; i++, n++) k |= (id.charCodeAt(i) & 0xff) << (n << 3);
    return finish(h, k, n, prefixLength + length);
  };
}

/** Rollout bucket 1–100 of `id` in `groupId`, as `normalizedStrategyValue` in unleash-client. */
export function rolloutBucket(id: string, groupId: string): number {
  return (murmurHash3(`${groupId}:${id}`, STRATEGY_SEED) % 100) + 1;
}
