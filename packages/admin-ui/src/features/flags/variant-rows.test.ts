import { describe, expect, it } from 'vitest';
import { balance, variantsProblem } from './variant-rows';

const v = (name: string, weightType: 'fix' | 'variable' = 'variable', weight = 0) => ({
  name,
  weight,
  weightType,
  stickiness: 'default',
});

describe('variant weights', () => {
  it('shares what fixed variants leave of 1000 among the variable ones', () => {
    expect(balance([v('a'), v('b'), v('c')]).map((x) => x.weight)).toEqual([334, 333, 333]);
    expect(balance([v('a', 'fix', 400), v('b'), v('c')]).map((x) => x.weight)).toEqual([400, 300, 300]);
  });

  it('rejects what the API would: duplicate names, fixed weights over 1000, bad JSON payloads', () => {
    expect(variantsProblem([v('a'), v('a')])).toMatch(/unique/);
    expect(variantsProblem([v('a', 'fix', 700), v('b', 'fix', 400)])).toMatch(/more than 1000/);
    expect(variantsProblem([{ ...v('a'), payload: { type: 'json', value: '{' } }])).toMatch(/not valid JSON/);
    expect(variantsProblem(balance([v('a'), v('b')]))).toBeNull();
  });
});

describe('overrides', () => {
  it('names the variant and the override row that cannot be saved', () => {
    const withOverrides = (overrides: { contextName: string; values: string[] }[]) => [
      { ...v('blue'), weight: 1000, overrides },
    ];
    expect(variantsProblem(withOverrides([{ contextName: '', values: ['a'] }]))).toBe(
      'Variant blue, override 1: Pick a context field.',
    );
    expect(variantsProblem(withOverrides([{ contextName: 'userId', values: [] }]))).toMatch(/at least one/);
    expect(
      variantsProblem(
        withOverrides([
          { contextName: 'userId', values: ['a'] },
          { contextName: 'userId', values: ['b'] },
        ]),
      ),
    ).toMatch(/override 2: userId is already overridden/);
    expect(variantsProblem(withOverrides([{ contextName: 'userId', values: ['alice', 'bob'] }]))).toBeNull();
  });
});
