// Stored configuration can be anything a past version, an import or a hand edit left behind: the
// compiler must accept it, evaluate what it can and answer `false` for the rest, never throw.
import { describe, expect, it } from 'vitest';
import type { ClientConstraint, ClientFeature, ClientFeatures } from './client-features.js';
import { compileFeatures } from './compile-features.js';
import { explainFeatures } from './explain-features.js';

const context = {
  userId: 'u1',
  remoteAddress: '10.1.2.3',
  currentTime: '2024-01-01T00:00:00Z',
  properties: { version: '1.2.3', age: '42', email: 'a@b.c' },
};

function withConstraint(constraint: unknown): ClientFeatures {
  return {
    features: [
      {
        name: 'f',
        enabled: true,
        strategies: [{ name: 'default', parameters: {}, constraints: [constraint as ClientConstraint] }],
      },
    ],
  };
}

const isOn = (input: ClientFeatures) => compileFeatures(input).isEnabled('f', context);

describe('bad constraint configuration', () => {
  it.each([
    ['unknown operator', { contextName: 'userId', operator: 'STR_MATCHES', values: ['u1'] }],
    ['missing operator', { contextName: 'userId', values: ['u1'] }],
    ['malformed semver', { contextName: 'version', operator: 'SEMVER_GT', value: 'one.two' }],
    ['missing semver', { contextName: 'version', operator: 'SEMVER_EQ' }],
    ['malformed number', { contextName: 'age', operator: 'NUM_LT', value: 'forty' }],
    ['malformed date', { contextName: 'currentTime', operator: 'DATE_BEFORE', value: 'next tuesday' }],
    ['invalid regex', { contextName: 'email', operator: 'REGEX', value: '(unclosed' }],
    ['regex without pattern', { contextName: 'email', operator: 'REGEX' }],
    ['invalid CIDR', { contextName: 'remoteAddress', operator: 'IN_CIDR', values: ['10.0.0.0/99', 'nope'] }],
    ['IN without values', { contextName: 'userId', operator: 'IN' }],
    ['string operator without values', { contextName: 'userId', operator: 'STR_CONTAINS', values: null }],
    ['null constraint', null],
  ])('%s evaluates to false without throwing', (_, constraint) => {
    expect(isOn(withConstraint(constraint))).toBe(false);
  });

  it('does not flip an unknown operator with inverted', () => {
    expect(
      isOn(withConstraint({ contextName: 'userId', operator: 'NOPE', values: ['x'], inverted: true })),
    ).toBe(false);
  });

  it('flips an unparsable operand with inverted, as unleash-client does', () => {
    // The SDK computes `false` for the operator, then applies `inverted`.
    expect(isOn(withConstraint({ contextName: 'age', operator: 'NUM_EQ', value: 'x', inverted: true }))).toBe(
      true,
    );
  });

  it('treats NOT_IN without values as true', () => {
    expect(isOn(withConstraint({ contextName: 'userId', operator: 'NOT_IN' }))).toBe(true);
  });
});

describe('bad feature and strategy configuration', () => {
  const features = [
    { name: 'no-strategy-list', enabled: true, strategies: 'default' },
    { name: 'missing-parameters', enabled: true, strategies: [{ name: 'flexibleRollout' }] },
    {
      name: 'numeric-parameters',
      enabled: true,
      strategies: [{ name: 'flexibleRollout', parameters: { rollout: 100, groupId: 'g' }, constraints: [] }],
    },
    {
      name: 'unknown-strategy',
      enabled: true,
      strategies: [{ name: 'myCustom', parameters: {}, constraints: [] }],
    },
    {
      name: 'missing-segment',
      enabled: true,
      strategies: [{ name: 'default', parameters: {}, constraints: [], segments: [404] }],
    },
    {
      name: 'zero-weights',
      enabled: true,
      strategies: [],
      variants: [
        { name: 'a', weight: 0 },
        { name: 'b', weight: 0 },
      ],
    },
    { name: 'variants-not-a-list', enabled: true, strategies: [], variants: { a: 1 } },
    {
      name: 'garbage-variants',
      enabled: true,
      strategies: [],
      variants: [null, { name: 'v', weight: 1, overrides: [null, { contextName: 'userId' }] }],
    },
    { name: 'missing-parent', enabled: true, strategies: [], dependencies: [{ feature: 'nowhere' }] },
    { name: 'null-strategy', enabled: true, strategies: [null] },
    {
      name: 'null-constraint',
      enabled: true,
      strategies: [{ name: 'default', parameters: {}, constraints: [null, 7] }],
    },
    null,
  ] as unknown as ClientFeature[];
  const compiled = compileFeatures({ features, segments: [null as never] });

  it.each([
    ['no-strategy-list', false],
    ['missing-parameters', false],
    ['numeric-parameters', true],
    ['unknown-strategy', false],
    ['missing-segment', false],
    ['zero-weights', true],
    ['variants-not-a-list', true],
    ['missing-parent', false],
    ['null-strategy', false],
    ['null-constraint', false],
    ['garbage-variants', true],
  ] as const)('%s → isEnabled %s', (name, expected) => {
    expect(compiled.isEnabled(name, context)).toBe(expected);
  });

  it('answers the disabled variant when variants cannot be selected', () => {
    expect(compiled.getVariant('zero-weights', context)).toMatchObject({
      name: 'disabled',
      feature_enabled: true,
    });
    expect(compiled.getVariant('variants-not-a-list', context)).toMatchObject({
      name: 'disabled',
      feature_enabled: true,
    });
  });

  it('explains every feature without throwing', () => {
    const explained = explainFeatures(compiled, context, { environment: 'dev' });
    expect(explained).toHaveLength(11);
    const nullConstraint = explained.find((f) => f.name === 'null-constraint')!;
    expect(nullConstraint.strategies.data[0]!.constraints.map((c) => c.result)).toEqual([false, false]);
  });

  it('compiles a payload that is not even an object', () => {
    expect(compileFeatures(null as unknown as ClientFeatures).isEnabled('f', context, true)).toBe(true);
  });
});

describe('shared compiled constraints', () => {
  it('keeps a null operand apart from a missing one (Number(null) is 0, Number(undefined) is NaN)', () => {
    const feature = (name: string, value: unknown): ClientFeature => ({
      name,
      enabled: true,
      strategies: [
        {
          name: 'default',
          parameters: {},
          constraints: [{ contextName: 'age', operator: 'NUM_EQ', value } as ClientConstraint],
        },
      ],
    });
    const compiled = compileFeatures({ features: [feature('null', null), feature('missing', undefined)] });
    const zero = { properties: { age: '0' } };
    expect(compiled.isEnabled('null', zero)).toBe(true);
    expect(compiled.isEnabled('missing', zero)).toBe(false);
  });
});
