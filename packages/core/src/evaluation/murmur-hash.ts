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
  return hashWithPrefix(prefixHashState('', seed), key);
}

/** MurmurHash3 state after a fixed prefix, so ids can be hashed after it without concatenating. */
export interface PrefixHashState {
  readonly h1: number;
  readonly pending: number;
  readonly pendingBytes: number;
  readonly length: number;
}

/** Mixes the whole 4-byte blocks of `prefix` once; the leftover bytes wait for the id. */
export function prefixHashState(prefix: string, seed: number): PrefixHashState {
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
  return { h1, pending, pendingBytes, length: prefix.length };
}

/**
 * `murmurHash3(prefix + id, seed)` for the prefix `state` was built from. A plain function rather
 * than a closure per prefix, so the engine can inline it into every rollout and variant test.
 */
export function hashWithPrefix(state: PrefixHashState, id: string): number {
  let h = state.h1;
  let k = state.pending;
  let n = state.pendingBytes;
  const length = id.length;
  let i = 0;
  // Complete the block the prefix left open, then mix whole 4-byte blocks straight from the id.
  if (n > 0) {
    for (; n < 4 && i < length; i++, n++) k |= (id.charCodeAt(i) & 0xff) << (n << 3);
    if (n < 4) return finish(h, k, n, state.length + length);
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
  return finish(h, k, n, state.length + length);
}

/** Returns `(id) => murmurHash3(prefix + id, seed)`. */
export function createPrefixHash(prefix: string, seed: number): (id: string) => number {
  const state = prefixHashState(prefix, seed);
  return (id) => hashWithPrefix(state, id);
}

/** Rollout bucket 1–100 of `id` in `groupId`, as `normalizedStrategyValue` in unleash-client. */
export function rolloutBucket(id: string, groupId: string): number {
  return (murmurHash3(`${groupId}:${id}`, STRATEGY_SEED) % 100) + 1;
}
