import { describe, expect, it } from 'vitest';
import { constraintProblem, honoursCaseInsensitive, OPERATOR_LABELS } from './constraint-editor';

describe('constraintProblem', () => {
  it('checks numbers, dates and semantic versions before sending', () => {
    expect(constraintProblem({ contextName: 'n', operator: 'NUM_GT', value: 'ten' })).toMatch(/number/);
    expect(constraintProblem({ contextName: 'd', operator: 'DATE_AFTER', value: 'soon' })).toMatch(/date/);
    expect(constraintProblem({ contextName: 'v', operator: 'SEMVER_LT', value: '1.2' })).toMatch(
      /semantic version/,
    );
    expect(constraintProblem({ contextName: 'v', operator: 'SEMVER_LT', value: '1.2.3-beta.1' })).toBeNull();
    expect(constraintProblem({ contextName: 'u', operator: 'IN', values: [] })).toMatch(/at least one/);
    expect(constraintProblem({ contextName: '', operator: 'IN', values: ['a'] })).toMatch(/context field/);
  });
});

describe('operators', () => {
  it('offers case insensitivity only where evaluation honours it', () => {
    expect(honoursCaseInsensitive('STR_CONTAINS')).toBe(true);
    expect(honoursCaseInsensitive('REGEX')).toBe(true);
    for (const op of ['NUM_EQ', 'DATE_AFTER', 'SEMVER_GTE', 'IN', 'IN_CIDR'] as const)
      expect(honoursCaseInsensitive(op)).toBe(false);
  });

  it('names every operator in words', () => {
    expect(OPERATOR_LABELS.SEMVER_GTE).toBe('≥ (semver)');
    expect(OPERATOR_LABELS.SEMVER_LTE).toBe('≤ (semver)');
    expect(OPERATOR_LABELS.REGEX).toMatch(/regular expression/);
    expect(OPERATOR_LABELS.IN_CIDR).toMatch(/IP range/);
  });

  it('checks a regular expression before sending it', () => {
    expect(constraintProblem({ contextName: 'e', operator: 'REGEX', value: '([a-z' })).toMatch(/regular/);
    expect(constraintProblem({ contextName: 'e', operator: 'REGEX', value: '^beta-.*' })).toBeNull();
  });
});
