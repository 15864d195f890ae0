import { beforeEach, describe, expect, it } from 'vitest';
import type { Flagstaff } from '../../flagstaff.js';
import { alice, createTestFlagstaff, eventTypesSince, userCaller } from '../test-support.js';
import { copyStrategies } from './strategy-copy-operations.js';

let flagstaff: Flagstaff;
const dev = { project: 'default', feature: 'f1', environment: 'development' };
const copy = (input: Record<string, unknown>, caller = alice) =>
  flagstaff.run.unknown(copyStrategies, caller, { ...dev, ...input });
const namesIn = async (environment: string) =>
  (await flagstaff.store.strategies.list({ featureName: 'f1', environment })).map((s) => s.title ?? s.name);

beforeEach(async () => {
  ({ flagstaff } = await createTestFlagstaff());
  await flagstaff.environments.create(alice, { name: 'staging', type: 'preproduction' });
  await flagstaff.projects.addEnvironment(alice, 'default', 'staging');
  await flagstaff.environments.create(alice, { name: 'qa', type: 'test' }); // not the project's
  await flagstaff.features.create(alice, 'default', { name: 'f1' });
  await flagstaff.strategies.add(alice, dev, { name: 'default', title: 'first' });
  await flagstaff.strategies.add(alice, dev, {
    name: 'flexibleRollout',
    title: 'second',
    parameters: { rollout: '25', stickiness: 'userId', groupId: 'f1' },
    constraints: [{ contextName: 'userId', operator: 'IN', values: ['a'] }],
  });
});

describe('copying strategies to several environments', () => {
  it('copies all of them after what each target has, with one feature-strategy-add per copy', async () => {
    await flagstaff.strategies.add(
      alice,
      { ...dev, environment: 'production' },
      { name: 'default', title: 'kept' },
    );
    const before = await flagstaff.store.events.latestId();
    const { strategies } = await copy({ environments: ['production', 'staging'] });
    expect(strategies.map((s) => [s.environment, s.title])).toEqual([
      ['production', 'first'],
      ['production', 'second'],
      ['staging', 'first'],
      ['staging', 'second'],
    ]);
    expect(await namesIn('production')).toEqual(['kept', 'first', 'second']);
    expect(await namesIn('staging')).toEqual(['first', 'second']);
    const copied = (await flagstaff.store.strategies.list({ featureName: 'f1', environment: 'staging' }))[1];
    expect(copied).toMatchObject({
      name: 'flexibleRollout',
      parameters: { rollout: '25', stickiness: 'userId', groupId: 'f1' },
      constraints: [{ contextName: 'userId', operator: 'IN', values: ['a'] }],
    });
    expect(await eventTypesSince(flagstaff, before)).toEqual(Array(4).fill('feature-strategy-add'));
  });

  it('copies only the listed strategies, in the source order', async () => {
    const [first, second] = await flagstaff.store.strategies.list({
      featureName: 'f1',
      environment: 'development',
    });
    const { strategies } = await copy({ environments: ['staging'], strategyIds: [second?.id, first?.id] });
    expect(strategies.map((s) => s.title)).toEqual(['first', 'second']);
    const only = await copy({ environments: ['production'], strategyIds: [second?.id] });
    expect(only.strategies.map((s) => s.title)).toEqual(['second']);
  });

  it('writes nothing when one target fails after another was copied to', async () => {
    const before = await flagstaff.store.events.latestId();
    await expect(copy({ environments: ['staging', 'qa'] })).rejects.toMatchObject({
      code: 'NOT_FOUND',
      message: expect.stringContaining('qa'),
    });
    expect(await namesIn('staging')).toEqual([]);
    expect(await eventTypesSince(flagstaff, before)).toEqual([]);
  });

  it('refuses bad input naming the property, and writes nothing', async () => {
    const before = await flagstaff.store.events.latestId();
    const cases: [Record<string, unknown>, string][] = [
      [{}, '"environments"'],
      [{ environments: [] }, '"environments"'],
      [{ environments: ['staging', 'staging'] }, '"environments[1]"'],
      [{ environments: ['development'] }, '"environments[0]"'],
      [{ environments: ['staging'], strategyIds: ['nope'] }, '"strategyIds[0]"'],
      [{ environments: ['staging'], strategyIds: [] }, '"strategyIds"'],
      [{ environments: 'staging' }, '"environments"'],
    ];
    for (const [input, property] of cases)
      await expect(copy(input), JSON.stringify(input)).rejects.toMatchObject({
        code: 'VALIDATION',
        message: expect.stringContaining(property),
      });
    await flagstaff.features.create(alice, 'default', { name: 'empty' });
    await expect(copy({ feature: 'empty', environments: ['staging'] })).rejects.toMatchObject({
      code: 'VALIDATION',
      message: expect.stringContaining('"strategyIds"'),
    });
    await expect(copy({ feature: 'nope', environments: ['staging'] })).rejects.toMatchObject({
      code: 'NOT_FOUND',
    });
    expect(await namesIn('staging')).toEqual([]);
    expect(await eventTypesSince(flagstaff, before)).toEqual(['feature-created']);
  });

  it('needs CREATE_FEATURE_STRATEGY in every target, and refuses a target requiring change requests', async () => {
    const viewer = userCaller(20, 'Viewer');
    await expect(copy({ environments: ['staging'] }, viewer)).rejects.toMatchObject({ code: 'FORBIDDEN' });
    await flagstaff.changeRequests.setConfig(alice, 'default', 'production', {
      changeRequestsEnabled: true,
      requiredApprovals: 1,
    });
    await expect(copy({ environments: ['staging', 'production'] })).rejects.toMatchObject({
      message: expect.stringContaining('change request'),
    });
    expect(await namesIn('staging')).toEqual([]);
    expect(await namesIn('production')).toEqual([]);
  });
});
