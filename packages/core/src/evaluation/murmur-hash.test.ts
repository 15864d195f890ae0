import { describe, expect, it } from 'vitest';
import { createPrefixHash, murmurHash3, rolloutBucket, VARIANT_SEED } from './murmur-hash.js';

describe('murmurHash3', () => {
  it('puts id 123 of group gr1 in bucket 73, the reference check', () => {
    expect(rolloutBucket('123', 'gr1')).toBe(73);
  });

  it('matches the standard MurmurHash3 x86_32 vectors for ASCII', () => {
    expect(murmurHash3('', 0)).toBe(0);
    expect(murmurHash3('', 1)).toBe(0x514e28b7);
    expect(murmurHash3('hello', 0)).toBe(0x248bfa47);
    expect(murmurHash3('The quick brown fox jumps over the lazy dog', 0)).toBe(0x2e4ff723);
  });

  it('hashes only the low byte of each UTF-16 code unit, like murmurhash3js', () => {
    // U+0161 (š) and U+0061 (a) share their low byte; U+1F600 is two code units.
    expect(murmurHash3('\u0161bc', 0)).toBe(murmurHash3('abc', 0));
    expect(murmurHash3('😀', 0)).toBe(murmurHash3('\u003d\u0000', 0));
  });

  it('hashes a prefix and an id exactly as their concatenation, at every alignment', () => {
    const ids = ['', 'a', 'ab', 'abc', 'abcd', 'abcde', 'user-123456789', 'æøå-ü'];
    for (let length = 0; length < 9; length++) {
      const prefix = 'groupId:'.slice(0, length);
      for (const seed of [0, VARIANT_SEED]) {
        const hash = createPrefixHash(prefix, seed);
        for (const id of ids) expect(hash(id)).toBe(murmurHash3(prefix + id, seed));
      }
    }
  });
});
