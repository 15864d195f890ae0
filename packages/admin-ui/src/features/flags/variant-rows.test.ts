import { describe, expect, it } from 'vitest';
import { balance, variantProblems } from './variant-rows';

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
