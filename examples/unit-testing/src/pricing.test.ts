// Flag logic tested in process: configure flags through Flagstaff's services on a memory store, then
// exercise the application code with the compiled flags. No database, no HTTP, a few ms per test.
import {
  createFlagstaff,
  createMemoryStore,
  type Flagstaff,
  type StrategyConfigInput,
  SYSTEM,
} from '@flagstaff/core';
import { beforeEach, describe, expect, it } from 'vitest';
import { priceFor } from './pricing.js';

const me = SYSTEM;
const env = 'development';
let flagstaff: Flagstaff;

async function enable(name: string, strategy: StrategyConfigInput = { name: 'default' }) {
  await flagstaff.features.create(me, 'default', { name });
  await flagstaff.strategies.add(me, { project: 'default', feature: name, environment: env }, strategy);
  await flagstaff.featureEnvironments.setEnabled(me, 'default', name, env, true);
}

beforeEach(async () => {
  flagstaff = await createFlagstaff({ store: createMemoryStore() });
});

describe('priceFor', () => {
  it('charges the list price when no flag is on', async () => {
    expect(priceFor(await flagstaff.client.evaluator(env), { id: 'u1', country: 'NO' }, 1250)).toBe(1250);
  });

  it('applies the regional discount only where its constraint matches', async () => {
    await enable('regional-discount', {
      name: 'default',
      constraints: [{ contextName: 'country', operator: 'IN', values: ['SE', 'NO'] }],
    });
    const flags = await flagstaff.client.evaluator(env);
    expect(priceFor(flags, { id: 'u1', country: 'NO' }, 1250)).toBe(1125);
    expect(priceFor(flags, { id: 'u1', country: 'DE' }, 1250)).toBe(1250);
  });

  it('rounds to a charm price for users in the "charm" variant', async () => {
    await enable('price-rounding');
    await flagstaff.featureEnvironments.setVariants(me, 'default', 'price-rounding', env, [
      { name: 'charm', weight: 1000, overrides: [] },
    ]);
    expect(priceFor(await flagstaff.client.evaluator(env), { id: 'u7', country: 'DE' }, 1250)).toBe(1299);
  });

  it('splits a 50% rollout deterministically by user', async () => {
    await enable('regional-discount', {
      name: 'flexibleRollout',
      parameters: { rollout: '50', stickiness: 'userId' },
    });
    const flags = await flagstaff.client.evaluator(env);
    const discounted = Array.from({ length: 1000 }, (_, i) =>
      priceFor(flags, { id: `user-${i}`, country: 'NO' }, 1000),
    ).filter((p) => p === 900).length;
    expect(discounted).toBeGreaterThan(430);
    expect(discounted).toBeLessThan(570);
    // The same user always gets the same answer.
    expect(priceFor(flags, { id: 'user-3', country: 'NO' }, 1000)).toBe(
      priceFor(await flagstaff.client.evaluator(env), { id: 'user-3', country: 'NO' }, 1000),
    );
  });
});
