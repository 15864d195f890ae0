import { beforeEach, describe, expect, it } from 'vitest';
import { featureListSchema, featureViewSchema, lifecycleCountSchema } from '../../domain/feature-view.js';
import type { Flagstaff } from '../../flagstaff.js';
import { alice, createTestFlagstaff, eventTypesSince, userCaller } from '../test-support.js';
import { addDependency } from './dependency-operations.js';
import { archiveFeaturesOperation, reviveFeatures, validateArchive } from './feature-archive-operations.js';
import { countFeatureLifecycles } from './feature-lifecycle-operations.js';
import { createFeature, patchFeature } from './feature-operations.js';
import { getFeature, listArchivedFeatures } from './feature-read-operations.js';

let flagstaff: Flagstaff;
beforeEach(async () => {
  ({ flagstaff } = await createTestFlagstaff());
});

describe('feature operations through flagstaff.run', () => {
  it('answer values their output schemas accept', async () => {
    const created = await flagstaff.run(createFeature, alice, { project: 'default', name: 'checkout' });
    expect(featureViewSchema.parse(created).name).toBe('checkout');
    const read = await flagstaff.run(getFeature, alice, { project: 'default', feature: 'checkout' });
    expect(featureViewSchema.parse(read).links).toEqual([]);
    const patched = await flagstaff.run(patchFeature, alice, {
      project: 'default',
      feature: 'checkout',
      operations: [{ op: 'replace', path: '/description', value: 'New checkout' }],
    });
    expect(patched.description).toBe('New checkout');
    expect(lifecycleCountSchema.parse(await flagstaff.run(countFeatureLifecycles, alice, {}))).toMatchObject({
      initial: 1,
    });
  });

  it('archives through the one archive path, checks first, and revives without a project', async () => {
    await flagstaff.run(createFeature, alice, { project: 'default', name: 'parent' });
    await flagstaff.run(createFeature, alice, { project: 'default', name: 'child' });
    await flagstaff.run(addDependency, alice, { project: 'default', child: 'child', feature: 'parent' });
    expect(await flagstaff.run(validateArchive, alice, { project: 'default', features: ['parent'] })).toEqual(
      { parentsWithChildFeatures: ['parent'], hasDeletedDependencies: true },
    );
    await expect(
      flagstaff.run(archiveFeaturesOperation, alice, { project: 'default', features: ['parent'] }),
    ).rejects.toMatchObject({ code: 'VALIDATION' });
    const before = (await flagstaff.store.events.latestId()) ?? 0;
    await flagstaff.run(archiveFeaturesOperation, alice, {
      project: 'default',
      features: ['parent', 'child'],
    });
    expect(await eventTypesSince(flagstaff, before)).toEqual([
      'feature-archived',
      'feature-archived',
      'feature-dependencies-removed',
    ]);
    const archived = featureListSchema.parse(await flagstaff.run(listArchivedFeatures, alice, {}));
    expect(archived.features.map((f) => f.name).sort()).toEqual(['child', 'parent']);
    await flagstaff.run(reviveFeatures, alice, { project: null, features: ['parent', 'child'] });
    expect((await flagstaff.features.list(alice)).map((f) => f.name).sort()).toEqual(['child', 'parent']);
  });

  it('asks the policy before reporting a bad body: a Viewer gets FORBIDDEN, not VALIDATION', async () => {
    await expect(
      flagstaff.run.unknown(createFeature, userCaller(7, 'Viewer'), { project: 'default', name: '' }),
    ).rejects.toMatchObject({ code: 'FORBIDDEN' });
    await expect(
      flagstaff.run.unknown(createFeature, alice, { project: 'default', name: '' }),
    ).rejects.toMatchObject({ code: 'VALIDATION' });
  });
});
