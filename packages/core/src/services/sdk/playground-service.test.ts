import { beforeEach, describe, expect, it } from 'vitest';
import { callerOf, SYSTEM } from '../../auth/caller.js';
import type { Principal } from '../../auth/principal.js';
import type { Flagstaff } from '../../flagstaff.js';
import { alice, createTestFlagstaff, tokenCaller } from '../test-support.js';

let flagstaff: Flagstaff;
const dev = (feature: string) => ({ project: 'default', feature, environment: 'development' });

beforeEach(async () => {
  ({ flagstaff } = await createTestFlagstaff());
  await flagstaff.features.create(alice, 'default', { name: 'beta' });
  await flagstaff.strategies.add(alice, dev('beta'), {
    name: 'default',
    constraints: [{ contextName: 'userId', operator: 'IN', values: ['u1'] }],
  });
  await flagstaff.strategies.add(alice, dev('beta'), { name: 'my-custom', disabled: false });
  await flagstaff.strategies.add(alice, dev('beta'), { name: 'default', disabled: true });
  await flagstaff.featureEnvironments.setEnabled(alice, 'default', 'beta', 'development', true);
});

describe('playground', () => {
  it('explains each strategy, echoes the input and decides isEnabled', async () => {
    const res = await flagstaff.playground.evaluate(SYSTEM, {
      environment: 'development',
      projects: '*',
      context: { appName: 'web', userId: 'u1' },
    });
    expect(res.input).toMatchObject({
      environment: 'development',
      projects: '*',
      context: { appName: 'web', userId: 'u1' },
    });
    const [beta] = res.features;
    expect(beta).toMatchObject({
      name: 'beta',
      projectId: 'default',
      isEnabled: true,
      isEnabledInCurrentEnvironment: true,
      hasUnsatisfiedDependency: false,
    });
    expect(beta!.strategies.result).toBe(true);
    expect(beta!.strategies.data.map((s) => s.result)).toEqual([
      { evaluationStatus: 'complete', enabled: true },
      { evaluationStatus: 'incomplete', enabled: 'unknown' },
      { evaluationStatus: 'unevaluated', enabled: 'unknown' },
    ]);
    expect(beta!.strategies.data[0]!.constraints[0]).toMatchObject({ operator: 'IN', result: true });
    expect(beta!.strategies.data[0]!.links.edit).toMatch(
      /^\/projects\/default\/features\/beta\/strategies\/edit\?environmentId=development&strategyId=/,
    );
  });

  it('reports "unknown" when only an unknown strategy could be on, and then isEnabled is false', async () => {
    const res = await flagstaff.playground.evaluate(SYSTEM, {
      environment: 'development',
      context: { appName: 'web', userId: 'other' },
    });
    expect(res.features[0]!.strategies.result).toBe('unknown');
    expect(res.features[0]!.isEnabled).toBe(false);
    expect(res.features[0]!.variant).toEqual({ name: 'disabled', enabled: false });
  });

  it('sees configuration changes immediately (the compiled form follows the revision)', async () => {
    const ctx = { environment: 'development', context: { appName: 'web', userId: 'u1' } };
    expect((await flagstaff.playground.evaluate(SYSTEM, ctx)).features[0]!.isEnabled).toBe(true);
    await flagstaff.featureEnvironments.setEnabled(alice, 'default', 'beta', 'development', false);
    expect((await flagstaff.playground.evaluate(SYSTEM, ctx)).features[0]!).toMatchObject({
      isEnabled: false,
      isEnabledInCurrentEnvironment: false,
    });
  });

  it('serializes exactly what evaluate returns (evaluateJson), and validates the same way', async () => {
    const segment = await flagstaff.segments.create(alice, {
      name: 'seg "quoted"',
      constraints: [{ contextName: 'plan', operator: 'IN', values: ['beta'] }],
    });
    await flagstaff.features.create(alice, 'default', { name: 'with-variants' });
    await flagstaff.strategies.add(alice, dev('with-variants'), {
      name: 'flexibleRollout',
      title: 'Ti"tle',
      parameters: { rollout: '100', stickiness: 'default', groupId: 'g' },
      segments: [segment.id],
    });
    await flagstaff.featureEnvironments.setVariants(alice, 'default', 'with-variants', 'development', [
      {
        name: 'blue',
        weight: 1000,
        weightType: 'variable',
        stickiness: 'default',
        payload: { type: 'string', value: 'b\n' },
      },
    ]);
    await flagstaff.featureEnvironments.setEnabled(alice, 'default', 'with-variants', 'development', true);
    for (const context of [
      { appName: 'web', userId: 'u1', properties: { plan: 'beta' } },
      { appName: 'web', userId: 'other', currentTime: '2024-01-01T00:00:00.000Z' },
    ]) {
      const input = { environment: 'development', projects: '*', context };
      expect(new TextDecoder().decode(await flagstaff.playground.evaluateJson(SYSTEM, input))).toBe(
        JSON.stringify(await flagstaff.playground.evaluate(SYSTEM, input)),
      );
    }
    await expect(
      flagstaff.playground.evaluateJson(SYSTEM, { environment: 'nope', context: { appName: 'a' } }),
    ).rejects.toMatchObject({ message: expect.stringContaining('"environment"') });
  });

  it('follows the revision across events that do not change the configuration', async () => {
    const ctx = { environment: 'development', context: { appName: 'web', userId: 'u1' } };
    expect((await flagstaff.playground.evaluate(SYSTEM, ctx)).features[0]!.isEnabled).toBe(true);
    await flagstaff.projects.create(alice, { id: 'unrelated', name: 'Unrelated' });
    expect((await flagstaff.playground.evaluate(SYSTEM, ctx)).features[0]!.isEnabled).toBe(true);
    await flagstaff.featureEnvironments.setEnabled(alice, 'default', 'beta', 'development', false);
    expect((await flagstaff.playground.evaluate(SYSTEM, ctx)).features[0]!.isEnabled).toBe(false);
    await flagstaff.featureEnvironments.setEnabled(alice, 'default', 'beta', 'development', true);
    expect(new TextDecoder().decode(await flagstaff.playground.evaluateJson(SYSTEM, ctx))).toContain(
      '"isEnabledInCurrentEnvironment":true,"isEnabled":true',
    );
  });

  it('evaluates dependencies on parents outside the selected features, before and after an SDK compiled everything', async () => {
    await flagstaff.features.create(alice, 'default', { name: 'zz-parent' });
    await flagstaff.strategies.add(alice, dev('zz-parent'), { name: 'default' });
    await flagstaff.featureEnvironments.setEnabled(alice, 'default', 'zz-parent', 'development', true);
    for (const [child, enabled] of [
      ['child-on', true],
      ['child-off', false],
    ] as const) {
      await flagstaff.features.create(alice, 'default', { name: child });
      await flagstaff.strategies.add(alice, dev(child), { name: 'default' });
      await flagstaff.featureEnvironments.setEnabled(alice, 'default', child, 'development', true);
      await flagstaff.dependencies.add(alice, 'default', child, { feature: 'zz-parent', enabled });
    }
    const input = { environment: 'development', query: 'child', context: { appName: 'web' } };
    const outcome = (res: {
      features: { name: string; isEnabled: boolean; hasUnsatisfiedDependency: boolean }[];
    }) => res.features.map((f) => [f.name, f.isEnabled, f.hasUnsatisfiedDependency]);
    const expected = [
      ['child-off', false, true],
      ['child-on', true, false],
    ];
    // The parent is not among the selected features: each chunk is compiled with its parents.
    const alone = await flagstaff.playground.evaluate(SYSTEM, input);
    expect(outcome(alone)).toEqual(expected);
    expect(
      JSON.parse(Buffer.from(await flagstaff.playground.evaluateJson(SYSTEM, input)).toString()),
    ).toEqual(alone);
    // An in-process check compiles the whole configuration; the playground then uses that evaluator.
    expect(await flagstaff.client.isEnabled('development', 'child-on', { appName: 'web' })).toBe(true);
    expect(await flagstaff.playground.evaluate(SYSTEM, input)).toEqual(alone);
    const every = await flagstaff.playground.evaluate(SYSTEM, { ...input, query: undefined });
    expect(outcome(every).filter(([name]) => String(name).startsWith('child'))).toEqual(expected);
  });

  it('rejects a missing appName and an unknown environment naming the property', async () => {
    await expect(
      flagstaff.playground.evaluate(SYSTEM, { environment: 'development', context: {} }),
    ).rejects.toMatchObject({ message: expect.stringContaining('"context.appName"') });
    await expect(
      flagstaff.playground.evaluate(SYSTEM, { environment: 'nope', context: { appName: 'a' } }),
    ).rejects.toMatchObject({ message: expect.stringContaining('"environment"') });
  });
});

describe('playground and private projects', () => {
  it('evaluates only projects the viewer may see: * means the visible ones, a hidden one is unknown', async () => {
    await flagstaff.projects.create(alice, { id: 'secret', name: 'Secret', mode: 'private' });
    await flagstaff.features.create(alice, 'secret', { name: 'classified' });
    const user = async (email: string, rootRole: 'Admin' | 'Editor', member = false) => {
      const created = await flagstaff.users.create(alice, { email, rootRole });
      if (member) await flagstaff.users.setUserProjectRoles(alice, 'secret', created.id, [5]);
      return (await flagstaff.access.userPrincipal(created.id))!;
    };
    const editor = await user('ed@example.com', 'Editor');
    const member = await user('mem@example.com', 'Editor', true);
    const admin = await user('root@example.com', 'Admin');
    const names = async (projects: string[] | '*', viewer?: Principal) =>
      (
        await flagstaff.playground.evaluate(viewer ? callerOf(viewer) : SYSTEM, {
          environment: 'development',
          projects,
          context: { appName: 'web' },
        })
      ).features
        .map((f) => f.name)
        .sort();
    expect(await names('*', editor)).toEqual(['beta']);
    expect(await names(['secret'], editor)).toEqual([]);
    expect(await names(['secret'], editor)).toEqual(await names(['no-such-project'], editor));
    expect(await names(['default', 'secret'], editor)).toEqual(['beta']);
    for (const viewer of [member, admin, undefined]) {
      expect(await names('*', viewer)).toEqual(['beta', 'classified']);
      expect(await names(['secret'], viewer)).toEqual(['classified']);
    }
    // The bytes the HTTP API sends are filtered the same way, and the input is echoed as sent.
    const json = JSON.parse(
      new TextDecoder().decode(
        await flagstaff.playground.evaluateJson(callerOf(editor), {
          environment: 'development',
          projects: '*',
          context: { appName: 'web' },
        }),
      ),
    );
    expect(json.input.projects).toBe('*');
    expect(json.features.map((f: { name: string }) => f.name)).toEqual(['beta']);
  });
});

describe('client API and in-process evaluation', () => {
  it('serves features without disabled strategies, with an ETag that changes with the configuration', async () => {
    const scope = tokenCaller('client', 'development');
    const first = await flagstaff.client.features(scope);
    expect(first.body.features[0]!.strategies.map((s) => s.name)).toEqual(['default', 'my-custom']);
    expect(first.body.meta?.revisionId).toBeGreaterThan(0);
    expect((await flagstaff.client.features(scope)).etag).toBe(first.etag);
    await flagstaff.features.create(alice, 'default', { name: 'another' });
    const second = await flagstaff.client.features(scope);
    expect(second.etag).not.toBe(first.etag);
    expect(second.body.features.map((f) => f.name)).toEqual(['another', 'beta']);
  });

  it('limits client features to the token projects', async () => {
    await flagstaff.projects.create(alice, { id: 'other', name: 'Other' });
    await flagstaff.features.create(alice, 'other', { name: 'elsewhere' });
    const res = await flagstaff.client.features(tokenCaller('client', 'development', ['other']));
    expect(res.body.features.map((f) => f.name)).toEqual(['elsewhere']);
  });

  it('evaluates in process and for the frontend API', async () => {
    expect(await flagstaff.client.isEnabled('development', 'beta', { userId: 'u1' })).toBe(true);
    expect(await flagstaff.client.isEnabled('production', 'beta', { userId: 'u1' })).toBe(false);
    const evaluator = await flagstaff.client.evaluator('development');
    expect(evaluator.getVariant('beta', { userId: 'u1' })).toMatchObject({
      name: 'disabled',
      enabled: false,
    });
    const front = await flagstaff.client.frontend(tokenCaller('frontend', 'development'), { userId: 'u1' });
    expect(front.toggles).toEqual([
      {
        name: 'beta',
        enabled: true,
        impressionData: false,
        variant: expect.objectContaining({ name: 'disabled', feature_enabled: true }),
      },
    ]);
    expect(
      (await flagstaff.client.frontend(tokenCaller('frontend', 'development'), { userId: 'x' })).toggles,
    ).toEqual([]);
  });
});
