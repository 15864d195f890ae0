import { RE2JS } from 're2js';
import { z } from 'zod';
import { MULTI_VALUE_OPERATORS, validateConstraintSchema } from '../../domain/constraint.js';
import { invalid } from '../../errors.js';
import { defineOperation } from '../../operations/define-operation.js';

/** A semantic version (semver.org 2.0.0), pre-release and build parts allowed. */
const SEMVER =
  /^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(?:-((?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*)(?:\.(?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*))*))?(?:\+([0-9a-zA-Z-]+(?:\.[0-9a-zA-Z-]+)*))?$/;

/** Nothing when the constraint is valid on its own; VALIDATION naming the fault otherwise. */
export const validateConstraint = defineOperation({
  id: 'constraints.validate',
  summary: 'Check a constraint (204 when valid; 400 naming what is wrong)',
  kind: 'read',
  permission: 'NONE',
  input: validateConstraintSchema,
  output: z.void(),
  run: async (c) => {
    if (MULTI_VALUE_OPERATORS.has(c.operator)) {
      if (!c.values || c.values.length === 0)
        throw invalid('values', `must list at least one value for the ${c.operator} operator.`);
      return;
    }
    const value = c.value ?? '';
    if (c.operator.startsWith('NUM_') && (value.trim() === '' || !Number.isFinite(Number(value))))
      throw invalid('value', `must be a number for the ${c.operator} operator; "${value}" is not.`);
    if (c.operator.startsWith('DATE_') && Number.isNaN(Date.parse(value)))
      throw invalid(
        'value',
        `must be an ISO 8601 date-time for the ${c.operator} operator; "${value}" is not.`,
      );
    if (c.operator === 'REGEX') {
      // The evaluator runs REGEX constraints on RE2, which refuses what RE2 cannot run in linear
      // time (backreferences, lookaround): validate the same way, or a "valid" constraint never matches.
      try {
        RE2JS.compile(value);
      } catch {
        throw invalid('value', `must be a valid RE2 regular expression; "${value}" is not.`);
      }
    }
    if (c.operator.startsWith('SEMVER_') && !SEMVER.test(value))
      throw invalid(
        'value',
        `must be a semantic version such as 1.2.3 for the ${c.operator} operator; "${value}" is not.`,
      );
  },
});
