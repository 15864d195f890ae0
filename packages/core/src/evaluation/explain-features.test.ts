import { describe, expect, it } from 'vitest';
import type { ClientFeatures, ClientStrategy } from './client-features.js';
import { compileFeatures } from './compile-features.js';
import { explainFeature, explainFeatures } from './explain-features.js';

const userIsU1 = {
  contextName: 'userId',
  operator: 'IN',
  values: ['u1'],
  caseInsensitive: false,
  inverted: false,
};
const userIsU2 = { ...userIsU1, values: ['u2'] };
const strategy = (id: string, extra: Partial<ClientStrategy> = {}): ClientStrategy => ({
  id,
  name: 'default',
  parameters: {},
  constraints: [],
  ...extra,
});

const payload: ClientFeatures = {
  segments: [
    { id: 7, name: 'beta users', constraints: [{ contextName: 'plan', operator: 'IN', values: ['beta'] }] },
  ],
  features: [
    {
      name: 'complete-on',
      project: 'web',
      enabled: true,
      strategies: [
        strategy('s1', {
          name: 'flexibleRollout',
          title: 'Everyone',
          parameters: { rollout: '100', stickiness: 'default', groupId: 'complete-on' },
          constraints: [userIsU1],
          segments: [7],
          variants: [
            { name: 'blue', weight: 1000, stickiness: 'default', payload: { type: 'string', value: 'b' } },
          ],
        }),
      ],
      variants: [{ name: 'red', weight: 1000, weightType: 'fix', stickiness: 'userId' }],
    },
    { name: 'complete-off', enabled: true, strategies: [strategy('s2', { constraints: [userIsU2] })] },
    {
      name: 'custom-pass',
      enabled: true,
      strategies: [strategy('s3', { name: 'myCustom', constraints: [userIsU1] })],
    },
    {
      name: 'custom-fail',
      enabled: true,
      strategies: [strategy('s4', { name: 'myCustom', constraints: [userIsU2] })],
    },
    {
      name: 'hostname',
      enabled: true,
      strategies: [strategy('s5', { name: 'applicationHostname', parameters: { hostNames: 'here' } })],
    },
    {
      name: 'disabled-strategy',
      enabled: true,
      strategies: [
        strategy('s6', { disabled: true, constraints: [userIsU1] }),
        strategy('s7', { name: 'flexibleRollout', parameters: { rollout: '0', groupId: 'g' } }),
      ],
    },
    { name: 'all-disabled', enabled: true, strategies: [strategy('s8', { disabled: true })] },
    {
      name: 'env-off',
      enabled: false,
      strategies: [strategy('s9')],
      variants: [{ name: 'red', weight: 1000 }],
    },
    {
      name: 'child',
      enabled: true,
      strategies: [strategy('s10')],
      dependencies: [{ feature: 'complete-off' }],
    },
  ],
};

const context = { appName: 'test', userId: 'u1', properties: { plan: 'beta' } };
const compiled = compileFeatures(payload, { hostname: 'here' });
const explained = new Map(
  explainFeatures(compiled, context, { environment: 'production' }).map((f) => [f.name, f]),
);
const feature = (name: string) => explained.get(name)!;

describe('explainFeatures', () => {
  it('reports a complete strategy that is on with every detail', () => {
    expect(feature('complete-on')).toEqual({
      name: 'complete-on',
      projectId: 'web',
      strategies: {
        result: true,
        data: [
          {
            name: 'flexibleRollout',
            title: 'Everyone',
            id: 's1',
            result: {
              evaluationStatus: 'complete',
              enabled: true,
              variant: { name: 'blue', enabled: true, payload: { type: 'string', value: 'b' } },
            },
            disabled: false,
            segments: [
              {
                id: 7,
                name: 'beta users',
                result: true,
                constraints: [
                  {
                    contextName: 'plan',
                    operator: 'IN',
                    values: ['beta'],
                    caseInsensitive: false,
                    inverted: false,
                    result: true,
                  },
                ],
              },
            ],
            constraints: [{ ...userIsU1, result: true }],
            parameters: { rollout: '100', stickiness: 'default', groupId: 'complete-on' },
            links: {
              edit: '/projects/web/features/complete-on/strategies/edit?environmentId=production&strategyId=s1',
            },
          },
        ],
      },
      hasUnsatisfiedDependency: false,
      isEnabledInCurrentEnvironment: true,
      isEnabled: true,
      variant: { name: 'blue', enabled: true, payload: { type: 'string', value: 'b' } },
      variants: [{ name: 'red', weight: 1000, weightType: 'fix', stickiness: 'userId' }],
    });
  });

  it('reports a complete strategy that is off, with the failing constraint', () => {
    const f = feature('complete-off');
    expect(f.strategies.data[0]!.result).toEqual({ evaluationStatus: 'complete', enabled: false });
    expect(f.strategies.data[0]!.constraints[0]!.result).toBe(false);
    expect(f.strategies.result).toBe(false);
    expect(f.isEnabled).toBe(false);
    expect(f.variant).toEqual({ name: 'disabled', enabled: false });
    expect(f.projectId).toBe('default');
  });

  it('reports an unknown strategy whose constraints pass as incomplete/unknown', () => {
    const f = feature('custom-pass');
    expect(f.strategies.data[0]!.result).toEqual({ evaluationStatus: 'incomplete', enabled: 'unknown' });
    expect(f.strategies.result).toBe('unknown');
    expect(f.isEnabled).toBe(false);
  });

  it('reports an unknown strategy whose constraints fail as incomplete/false', () => {
    const f = feature('custom-fail');
    expect(f.strategies.data[0]!.result).toEqual({ evaluationStatus: 'incomplete', enabled: false });
    expect(f.strategies.result).toBe(false);
  });

  it('reports applicationHostname as incomplete even where the fast path knows the host', () => {
    expect(compiled.isEnabled('hostname', context)).toBe(true);
    expect(feature('hostname').strategies.data[0]!.result).toEqual({
      evaluationStatus: 'incomplete',
      enabled: 'unknown',
    });
  });

  it('reports a disabled strategy as unevaluated/unknown and still evaluates its constraints', () => {
    const f = feature('disabled-strategy');
    const [disabled, rollout] = f.strategies.data;
    expect(disabled!.result).toEqual({ evaluationStatus: 'unevaluated', enabled: 'unknown' });
    expect(disabled!.disabled).toBe(true);
    expect(disabled!.constraints).toEqual([{ ...userIsU1, result: true }]);
    expect(rollout!.result).toEqual({ evaluationStatus: 'complete', enabled: false });
    expect(f.strategies.result).toBe('unknown');
    expect(f.isEnabled).toBe(false);
  });

  it('treats a feature whose strategies are all disabled as off, like the fast path (regression: it was on for everyone)', () => {
    const f = feature('all-disabled');
    expect(f.strategies.result).toBe(false);
    expect(f.isEnabled).toBe(compiled.isEnabled('all-disabled', context));
    expect(f.isEnabled).toBe(false);
  });

  it('evaluates strategies of a feature whose environment is off but reports it disabled', () => {
    const f = feature('env-off');
    expect(f.strategies.result).toBe(true);
    expect(f.isEnabledInCurrentEnvironment).toBe(false);
    expect(f.isEnabled).toBe(false);
    expect(f.variant).toEqual({ name: 'disabled', enabled: false });
    expect(f.variants).toEqual([
      { name: 'red', weight: 1000, weightType: 'variable', stickiness: 'default' },
    ]);
  });

  it('reports an unsatisfied dependency', () => {
    const f = feature('child');
    expect(f.strategies.result).toBe(true);
    expect(f.hasUnsatisfiedDependency).toBe(true);
    expect(f.isEnabled).toBe(false);
  });

  it('agrees with the fast path on every feature it can decide', () => {
    for (const f of explained.values()) {
      if (f.strategies.result !== 'unknown')
        expect(f.isEnabled, f.name).toBe(compiled.isEnabled(f.name, context));
    }
  });

  it('filters by project and explains single features', () => {
    expect(
      explainFeatures(compiled, context, { environment: 'production', projects: ['web'] }).map((f) => f.name),
    ).toEqual(['complete-on']);
    expect(explainFeature(compiled.get('complete-off')!, context, 'production').name).toBe('complete-off');
  });

  it('returns results the caller may mutate without touching the compiled set', () => {
    const first = explainFeatures(compiled, context, { environment: 'production' });
    first[0]!.strategies.data[0]!.parameters['rollout'] = '0';
    first[0]!.variants[0]!.name = 'changed';
    const again = explainFeature(compiled.get('complete-on')!, context, 'production');
    expect(again.strategies.data[0]!.parameters['rollout']).toBe('100');
    expect(again.variants[0]!.name).toBe('red');
  });
});
