import { describe, expect, it } from 'vitest';
import { constraintProblem } from './constraint-editor';

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
