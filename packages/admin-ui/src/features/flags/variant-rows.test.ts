import { describe, expect, it } from 'vitest';
import { balance, variantFields, variantProblems } from './variant-rows';

const firstProblem = (variants: Parameters<typeof variantProblems>[0]) =>
  variantProblems(variants)[0]?.message ?? null;

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
    expect(firstProblem([v('a'), v('a')])).toMatch(/unique/);
    expect(firstProblem([v('a', 'fix', 700), v('b', 'fix', 400)])).toMatch(/more than 1000/);
    expect(firstProblem([{ ...v('a'), payload: { type: 'json', value: '{' } }])).toMatch(/valid JSON/);
    expect(firstProblem(balance([v('a'), v('b')]))).toBeNull();
  });

  it('names the field at fault, as the server does, so the form can show it there', () => {
    const problems = variantProblems([
      v('a'),
      { ...v('a'), payload: { type: 'number', value: 'ten' } },
      { ...v('c', 'fix', 1001) },
    ]);
    expect(problems.map((p) => p.path)).toEqual(['[1].payload.value', '[2].weight', '[1].name', 'variants']);
  });
});

describe('overrides', () => {
  it('names the variant and the override row that cannot be saved, in words for beside the row', () => {
    const withOverrides = (overrides: { contextName: string; values: string[] }[]) => [
      { ...v('blue'), weight: 1000, overrides },
    ];
    expect(variantProblems(withOverrides([{ contextName: '', values: ['a'] }]))[0]).toEqual({
      path: '[0].overrides[0]',
      message: 'Pick a context field.',
    });
    expect(firstProblem(withOverrides([{ contextName: 'userId', values: [] }]))).toMatch(/at least one/);
    expect(
      variantProblems(
        withOverrides([
          { contextName: 'userId', values: ['a'] },
          { contextName: 'userId', values: ['b'] },
        ]),
      ),
    ).toEqual([{ path: '[0].overrides[1]', message: 'userId is already overridden above.' }]);
    expect(variantProblems(withOverrides([{ contextName: 'userId', values: ['alice', 'bob'] }]))).toEqual([]);
  });

  it('gives each override row a field of its own', () => {
    expect(variantFields([{ ...v('blue'), overrides: [{ contextName: 'userId', values: ['a'] }] }])).toEqual([
      'variants',
      '[0].name',
      '[0].weight',
      '[0].payload',
      '[0].overrides[0]',
    ]);
  });
});
