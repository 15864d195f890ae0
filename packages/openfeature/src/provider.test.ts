import {
  createFlagstaff,
  createMemoryStore,
  type Flagstaff,
  type StrategyConfigInput,
  SYSTEM,
  type VariantInput,
} from '@flagstaff/core';
import {
  ErrorCode,
  type EventDetails,
  OpenFeature,
  ProviderEvents,
  StandardResolutionReasons,
} from '@openfeature/server-sdk';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createFlagstaffProvider } from './provider.js';

const me = SYSTEM;
const env = 'development';
let flagstaff: Flagstaff;
let domain = 0;

async function feature(name: string, strategy: StrategyConfigInput = { name: 'default' }) {
  await flagstaff.features.create(me, 'default', { name });
  await flagstaff.strategies.add(me, { project: 'default', feature: name, environment: env }, strategy);
  await flagstaff.featureEnvironments.setEnabled(me, 'default', name, env, true);
}

const variants = (name: string, list: VariantInput[]) =>
  flagstaff.featureEnvironments.setVariants(me, 'default', name, env, list);

/** A client of a fresh domain served by a Flagstaff provider (ready once this resolves). */
async function client() {
  const name = `flagstaff-${++domain}`;
  const provider = createFlagstaffProvider(flagstaff, { environment: env });
  await OpenFeature.setProviderAndWait(name, provider);
  return { client: OpenFeature.getClient(name), provider };
}

beforeEach(async () => {
  flagstaff = await createFlagstaff({ store: createMemoryStore(), metricsFlushIntervalMs: 0 });
});
afterEach(async () => {
  await OpenFeature.close();
  await flagstaff.close();
});

describe('boolean flags', () => {
  it('answer isEnabled with the strategy that decided it', async () => {
    await feature('beta', { name: 'userWithId', parameters: { userIds: 'alice' } });
    await flagstaff.features.create(me, 'default', { name: 'dormant' });
    const { client: c } = await client();
    const alice = await c.getBooleanDetails('beta', false, { targetingKey: 'alice' });
    expect(alice).toMatchObject({ value: true, reason: StandardResolutionReasons.TARGETING_MATCH });
    expect(alice.flagMetadata).toMatchObject({ strategyId: expect.any(String), strategyName: 'userWithId' });
    expect(await c.getBooleanDetails('beta', true, { targetingKey: 'bob' })).toMatchObject({
      value: false,
      reason: StandardResolutionReasons.DEFAULT,
    });
    expect(await c.getBooleanDetails('dormant', true)).toMatchObject({
      value: false,
      reason: StandardResolutionReasons.DISABLED,
    });
    expect(await c.getBooleanDetails('missing', true)).toMatchObject({
      value: true,
      reason: StandardResolutionReasons.ERROR,
      errorCode: ErrorCode.FLAG_NOT_FOUND,
    });
  });

  it('map the evaluation context: targetingKey, known fields, the rest as properties', async () => {
    await feature('eu-only', {
      name: 'default',
      constraints: [
        { contextName: 'region', operator: 'IN', values: ['eu'] },
        { contextName: 'sessionId', operator: 'IN', values: ['s1'] },
        { contextName: 'tier', operator: 'NUM_GT', value: '2' },
      ],
    });
    const { client: c } = await client();
    expect(await c.getBooleanValue('eu-only', false, { region: 'eu', sessionId: 's1', tier: 3 })).toBe(true);
    expect(await c.getBooleanValue('eu-only', false, { region: 'us', sessionId: 's1', tier: 3 })).toBe(false);
    expect(await c.getBooleanValue('eu-only', false, { region: 'eu', sessionId: 's2', tier: 3 })).toBe(false);
  });
});

describe('string, number and object flags', () => {
  it('read the payload of the variant, with SPLIT for weight and TARGETING_MATCH for an override', async () => {
    await feature('headline');
    await variants('headline', [
      { name: 'a', weight: 500, payload: { type: 'string', value: 'Hello' } },
      {
        name: 'b',
        weight: 500,
        payload: { type: 'string', value: 'Hi' },
        overrides: [{ contextName: 'userId', values: ['vip'] }],
      },
    ]);
    const { client: c } = await client();
    const split = await c.getStringDetails('headline', 'default', { targetingKey: 'u-1' });
    expect(split.reason).toBe(StandardResolutionReasons.SPLIT);
    expect(['Hello', 'Hi']).toContain(split.value);
    expect(split.flagMetadata.variant).toBe(split.variant);
    expect(await c.getStringDetails('headline', 'default', { targetingKey: 'vip' })).toMatchObject({
      value: 'Hi',
      variant: 'b',
      reason: StandardResolutionReasons.TARGETING_MATCH,
    });
  });

  it('parse number and json payloads; TYPE_MISMATCH when the payload type does not fit', async () => {
    await feature('limit');
    await variants('limit', [{ name: 'high', weight: 1000, payload: { type: 'number', value: '42.5' } }]);
    await feature('theme');
    await variants('theme', [
      { name: 'dark', weight: 1000, payload: { type: 'json', value: '{"bg":"#000"}' } },
    ]);
    const { client: c } = await client();
    expect(await c.getNumberDetails('limit', 1)).toMatchObject({
      value: 42.5,
      variant: 'high',
      reason: 'SPLIT',
    });
    expect(await c.getObjectValue('theme', {})).toEqual({ bg: '#000' });
    expect(await c.getStringDetails('limit', 'x')).toMatchObject({
      value: 'x',
      reason: StandardResolutionReasons.ERROR,
      errorCode: ErrorCode.TYPE_MISMATCH,
    });
    expect(await c.getNumberDetails('theme', 7)).toMatchObject({
      value: 7,
      errorCode: ErrorCode.TYPE_MISMATCH,
    });
  });

  it('give the default with DEFAULT when no variant applies, DISABLED when the feature is off', async () => {
    await feature('plain');
    await flagstaff.features.create(me, 'default', { name: 'off' });
    const { client: c } = await client();
    expect(await c.getStringDetails('plain', 'fallback')).toMatchObject({
      value: 'fallback',
      reason: StandardResolutionReasons.DEFAULT,
    });
    expect(await c.getObjectDetails('off', { a: 1 })).toMatchObject({
      value: { a: 1 },
      reason: StandardResolutionReasons.DISABLED,
    });
    expect(await c.getNumberDetails('nope', 3)).toMatchObject({
      value: 3,
      errorCode: ErrorCode.FLAG_NOT_FOUND,
    });
  });
});

describe('configuration changes', () => {
  it('emits PROVIDER_CONFIGURATION_CHANGED naming the changed flags and evaluates the new configuration', async () => {
    await feature('rollout', { name: 'userWithId', parameters: { userIds: 'alice' } });
    const { client: c } = await client();
    expect(await c.getBooleanValue('rollout', false, { targetingKey: 'bob' })).toBe(false);
    const changes: EventDetails[] = [];
    c.addHandler(ProviderEvents.ConfigurationChanged, (details) => {
      if (details) changes.push(details);
    });
    await feature('other');
    await flagstaff.strategies.add(
      me,
      { project: 'default', feature: 'rollout', environment: env },
      { name: 'default' },
    );
    await expect.poll(() => changes.flatMap((d) => d.flagsChanged ?? [])).toContain('rollout');
    expect(changes.flatMap((d) => d.flagsChanged ?? [])).toContain('other');
    expect(await c.getBooleanValue('rollout', false, { targetingKey: 'bob' })).toBe(true);
  });
});

describe('a store that cannot announce changes', () => {
  it('evaluates the current configuration on every call', async () => {
    const { onEventsAppended: _ignored, ...quiet } = flagstaff.store;
    const provider = createFlagstaffProvider(
      { ...flagstaff, store: { ...quiet, name: 'quiet' } },
      { environment: env },
    );
    await OpenFeature.setProviderAndWait('quiet', provider);
    const c = OpenFeature.getClient('quiet');
    expect(await c.getBooleanDetails('late', false)).toMatchObject({ errorCode: ErrorCode.FLAG_NOT_FOUND });
    await feature('late');
    expect(await c.getBooleanValue('late', false)).toBe(true);
  });
});
