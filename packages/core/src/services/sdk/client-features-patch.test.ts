import { describe, expect, it } from 'vitest';
import type { ClientFeatures } from '../../evaluation/client-features.js';
import type { Flagstaff } from '../../flagstaff.js';
import { alice, createTestFlagstaff } from '../test-support.js';
import { patchedPayload } from './client-features-patch.js';
import { loadClientFeatures } from './client-features-snapshot.js';

const ENV = 'development';
const at = (feature: string) => ({ project: 'default', feature, environment: ENV });
const full = (flagstaff: Flagstaff) => loadClientFeatures(flagstaff.store, ENV);

/** Runs `change`, then checks the patched payload against a full read of the store. */
async function expectPatchEqualsFull(
  flagstaff: Flagstaff,
  before: { payload: ClientFeatures; revision: number },
  change: () => Promise<unknown>,
): Promise<{ payload: ClientFeatures; revision: number; patched: boolean }> {
  await change();
  const revision = await flagstaff.store.events.latestId();
  const patched = await patchedPayload(flagstaff.store, before.payload, before.revision, revision, ENV);
  const expected = await full(flagstaff);
  if (patched) expect(patched.payload).toEqual(expected);
  return { payload: expected, revision, patched: patched !== null };
}

describe('a client payload patched from the features a change names', () => {
  it('equals a full read after every kind of feature change', async () => {
    const { flagstaff } = await createTestFlagstaff();
    const f = flagstaff;
    for (const name of ['alpha', 'beta', 'child', 'omega'])
      await f.features.create(alice, 'default', { name });
    let state = { payload: await full(f), revision: await f.store.events.latestId() };
    const step = async (change: () => Promise<unknown>, expectPatched = true) => {
      const next = await expectPatchEqualsFull(f, state, change);
      expect(next.patched).toBe(expectPatched);
      state = next;
    };

    let strategyId = '';
    await step(async () => {
      strategyId = (await f.strategies.add(alice, at('alpha'), { name: 'default' })).id;
    });
    await step(() => f.featureEnvironments.setEnabled(alice, 'default', 'alpha', ENV, true));
    await step(() =>
      f.strategies.update(alice, at('alpha'), strategyId, {
        name: 'userWithId',
        parameters: { userIds: 'ada' },
        disabled: true,
      }),
    );
    await step(async () => {
      const second = await f.strategies.add(alice, at('alpha'), { name: 'default' });
      await f.strategies.reorder(alice, at('alpha'), [
        { id: second.id, sortOrder: 0 },
        { id: strategyId, sortOrder: 1 },
      ]);
    });
    await step(() =>
      f.featureEnvironments.setVariants(alice, 'default', 'alpha', ENV, [
        { name: 'blue', weight: 1000, weightType: 'variable', stickiness: 'default' },
      ]),
    );
    await step(() => f.dependencies.add(alice, 'default', 'child', { feature: 'beta' }));
    await step(() =>
      f.features.update(alice, 'default', 'beta', { description: 'parent', type: 'experiment' }),
    );
    await step(() => f.features.setStale(alice, 'default', ['alpha'], true));
    // Archiving a child drops its links to parents; a parent is archived only once no child is live.
    await step(() => f.features.archive(alice, 'default', ['child']));
    await step(() => f.features.revive(alice, 'default', ['child']));
    await step(() => f.features.archive(alice, 'default', ['beta']));
    await step(() => f.features.revive(alice, 'default', ['beta']));
    await step(() => f.features.create(alice, 'default', { name: 'aardvark' }));
    await step(() => f.features.create(alice, 'default', { name: 'zulu' }));
    await step(async () => {
      await f.features.archive(alice, 'default', ['omega']);
      await f.features.deleteArchived(alice, 'default', ['omega']);
    });
    await step(() => f.strategies.delete(alice, at('alpha'), strategyId));
    // A segment can change many features at once: that is read in full.
    await step(() => f.segments.create(alice, { name: 's', constraints: [] }), false);
    await step(() => f.featureEnvironments.setEnabled(alice, 'default', 'zulu', ENV, true));
  });

  it('reads in full when more changes piled up than are worth patching', async () => {
    const { flagstaff: f } = await createTestFlagstaff();
    const before = { payload: await full(f), revision: await f.store.events.latestId() };
    const { patched } = await expectPatchEqualsFull(f, before, async () => {
      for (let i = 0; i < 110; i++) await f.features.create(alice, 'default', { name: `bulk-${i}` });
    });
    expect(patched).toBe(false);
  });
});
