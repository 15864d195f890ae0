import { describe, expect, it } from 'vitest';
import { SYSTEM } from '../auth/caller.js';
import { withoutDisabledStrategies } from '../services/sdk/client-delta.js';
import { alice, createTestFlagstaff } from '../services/test-support.js';
import type { ClientFeature, ClientStrategy } from './client-features.js';
import { compileFeatures } from './compile-features.js';
import { isDisabledStrategy, offByDisabledStrategies } from './disabled-strategies.js';
import { explainFeature } from './explain-features.js';

const strategy = (disabled?: boolean): ClientStrategy => ({
  name: 'default',
  parameters: {},
  constraints: [],
  ...(disabled === undefined ? {} : { disabled }),
});
const feature = (strategies: ClientStrategy[]): ClientFeature => ({ name: 'f', enabled: true, strategies });

describe('all strategies disabled ⇒ off, decided in one place', () => {
  it('is off only with strategies, every one disabled', () => {
    expect(offByDisabledStrategies([], isDisabledStrategy)).toBe(false);
    expect(offByDisabledStrategies([strategy(true)], isDisabledStrategy)).toBe(true);
    expect(offByDisabledStrategies([strategy(true), strategy(true)], isDisabledStrategy)).toBe(true);
    expect(offByDisabledStrategies([strategy(true), strategy(false)], isDisabledStrategy)).toBe(false);
    expect(offByDisabledStrategies([strategy()], isDisabledStrategy)).toBe(false);
  });

  it('gives the same answer in the evaluator, the playground and the SDK form', () => {
    for (const [strategies, on] of [
      [[], true],
      [[strategy(true)], false],
      [[strategy(true), strategy(true)], false],
      [[strategy(true), strategy()], true],
    ] as const) {
      const source = feature([...strategies]);
      const compiled = compileFeatures({ version: 2, features: [source] });
      expect(compiled.isEnabled('f', {})).toBe(on);
      expect(explainFeature(compiled.get('f')!, {}, 'development').isEnabled).toBe(on);
      const sdk = withoutDisabledStrategies(source);
      expect(sdk.enabled).toBe(on);
      expect(sdk.strategies.length).toBe(strategies.filter((s) => !s.disabled).length);
    }
  });

  it('sends a feature whose only strategy was disabled to SDKs as off (payload and delta)', async () => {
    const { flagstaff: f } = await createTestFlagstaff();
    const at = { project: 'default', feature: 'quiet', environment: 'development' };
    await f.features.create(alice, 'default', { name: 'quiet' });
    const { id } = await f.strategies.add(alice, at, { name: 'default' });
    await f.featureEnvironments.setEnabled(alice, 'default', 'quiet', 'development', true);
    const before = await f.client.features(SYSTEM, {});
    expect(before.body.features.find((x) => x.name === 'quiet')?.enabled).toBe(true);
    const since = (await f.client.delta(SYSTEM, {}, null)).revision;

    await f.strategies.update(alice, at, id, { name: 'default', disabled: true });

    const after = await f.client.features(SYSTEM, {});
    expect(after.body.features.find((x) => x.name === 'quiet')).toMatchObject({
      enabled: false,
      strategies: [],
    });
    const delta = await f.client.delta(SYSTEM, {}, since);
    expect(delta.kind).toBe('events');
    const events = JSON.parse(
      Buffer.from(delta.kind === 'events' ? delta.payload.bytes : []).toString('utf8'),
    ).events;
    expect(events).toContainEqual(
      expect.objectContaining({
        type: 'feature-updated',
        feature: expect.objectContaining({ enabled: false }),
      }),
    );
    expect(await f.client.isEnabled('development', 'quiet')).toBe(false);
  });
});
