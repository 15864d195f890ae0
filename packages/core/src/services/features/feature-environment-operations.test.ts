import { beforeEach, describe, expect, it } from 'vitest';
import type { Flagstaff } from '../../flagstaff.js';
import { alice, createTestFlagstaff, eventTypesSince, userCaller } from '../test-support.js';
import {
  getFeatureEnvironmentVariants,
  setFeatureEnvironmentVariants,
  setVariantsInEnvironments,
} from './feature-environment-operations.js';

let flagstaff: Flagstaff;
const at = { project: 'default', feature: 'f1', environment: 'development' };
beforeEach(async () => {
  ({ flagstaff } = await createTestFlagstaff());
  await flagstaff.features.create(alice, 'default', { name: 'f1' });
});

describe('feature environment operations', () => {
  it('switch a feature on with the default strategy and off again, with their events', async () => {
    const after = (await flagstaff.store.events.search({ limit: 1 }))[0]?.id ?? 0;
    await flagstaff.featureEnvironments.setEnabled(alice, 'default', 'f1', 'development', true);
    expect(await flagstaff.strategies.list(alice, at)).toHaveLength(1);
    await flagstaff.featureEnvironments.setEnabled(alice, 'default', 'f1', 'development', false);
    const types = await eventTypesSince(flagstaff, after);
    expect(types).toContain('feature-environment-enabled');
    expect(types).toContain('feature-environment-disabled');
  });

  it('answer { version: 1, variants } and normalize weights; the facade returns the list', async () => {
    const answer = await flagstaff.run(setFeatureEnvironmentVariants, alice, {
      ...at,
      variants: [
        { name: 'a', weight: 0 },
        { name: 'b', weight: 0 },
      ],
    });
    expect(answer.version).toBe(1);
    expect(answer.variants.map((v) => v.weight)).toEqual([500, 500]);
    expect(await flagstaff.featureEnvironments.getVariants(alice, 'default', 'f1', 'development')).toEqual(
      answer.variants,
    );
    expect(await flagstaff.run(getFeatureEnvironmentVariants, alice, at)).toEqual(answer);
  });

  it('name a bad variant where it stands in the list, as when the list was the whole body', async () => {
    await expect(
      flagstaff.run.unknown(setFeatureEnvironmentVariants, alice, {
        ...at,
        variants: [{ name: 'a', weight: 1000, payload: { type: 'number', value: 'ten' } }],
      }),
    ).rejects.toMatchObject({ code: 'VALIDATION', details: { path: '[0].payload.value' } });
  });

  it('refuse a Viewer before looking at the body (403, not 400)', async () => {
    await expect(
      flagstaff.run.unknown(setVariantsInEnvironments, userCaller(1, 'Viewer'), {
        project: 'default',
        feature: 'f1',
        variants: 'not a list',
        environments: ['development'],
      }),
    ).rejects.toMatchObject({ code: 'FORBIDDEN' });
  });
});
