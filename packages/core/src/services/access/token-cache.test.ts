import { describe, expect, it } from 'vitest';
import { createFlagstaff } from '../../flagstaff.js';
import { createMemoryStore } from '../../memory/memory-store.js';
import type { Store } from '../../ports/store.js';
import { alice, createTestClock } from '../test-support.js';

/** A memory store that counts token lookups by hash. */
function countingStore(): { store: Store; lookups: () => number } {
  const store = createMemoryStore();
  let count = 0;
  const getByHash = store.apiTokens.getByHash;
  Object.assign(store, {
    apiTokens: {
      ...store.apiTokens,
      getByHash: (hash: string) => {
        count++;
        return getByHash(hash);
      },
    },
  });
  return { store, lookups: () => count };
}

describe('token cache', () => {
  // Every write used to drop the cache, so a run of admin commands read its token once per request.
  it('keeps a token across writes of other events and forgets it on a token event', async () => {
    const { store, lookups } = countingStore();
    const flagstaff = await createFlagstaff({ store, clock: createTestClock() });
    const token = await flagstaff.apiTokens.create(alice, { tokenName: 'ops', type: 'admin' });
    const other = await flagstaff.apiTokens.create(alice, { tokenName: 'other', type: 'client' });

    expect(await flagstaff.access.authenticateToken(token.secret)).not.toBeNull();
    const afterFirst = lookups();
    await flagstaff.features.create(alice, 'default', { name: 'not-about-tokens' });
    await flagstaff.access.authenticateToken(token.secret);
    expect(lookups()).toBe(afterFirst);

    await flagstaff.apiTokens.delete(alice, other.secret);
    await flagstaff.access.authenticateToken(token.secret);
    expect(lookups()).toBe(afterFirst + 1);
  });

  it('refuses a deleted token at once', async () => {
    const { store } = countingStore();
    const flagstaff = await createFlagstaff({ store, clock: createTestClock() });
    const token = await flagstaff.apiTokens.create(alice, { tokenName: 'ops', type: 'admin' });
    expect(await flagstaff.access.authenticateToken(token.secret)).not.toBeNull();
    await flagstaff.apiTokens.delete(alice, token.secret);
    expect(await flagstaff.access.authenticateToken(token.secret)).toBeNull();
  });
});
