import { z } from 'zod';

/** The 15 operators of the contract plus the four Unleash 5+ added. */
export const CONSTRAINT_OPERATORS = [
  'NOT_IN',
  'IN',
  'STR_ENDS_WITH',
  'STR_STARTS_WITH',
  'STR_CONTAINS',
  'NUM_EQ',
  'NUM_GT',
  'NUM_GTE',
  'NUM_LT',
  'NUM_LTE',
  'DATE_AFTER',
  'DATE_BEFORE',
  'SEMVER_EQ',
  'SEMVER_GT',
  'SEMVER_LT',
  'SEMVER_GTE',
  'SEMVER_LTE',
  'REGEX',
  'IN_CIDR',
] as const;
export const constraintOperatorSchema = z.enum(CONSTRAINT_OPERATORS);
export type ConstraintOperator = z.infer<typeof constraintOperatorSchema>;

/** Operators that read `values` (a list); the rest read the single `value`. */
export const MULTI_VALUE_OPERATORS: ReadonlySet<ConstraintOperator> = new Set([
  'IN',
  'NOT_IN',
  'STR_ENDS_WITH',
  'STR_STARTS_WITH',
  'STR_CONTAINS',
  'IN_CIDR',
]);

export const constraintSchema = z.object({
  contextName: z.string().min(1, 'must be a non-empty context field name'),
  operator: constraintOperatorSchema,
  caseInsensitive: z.boolean().default(false),
  inverted: z.boolean().default(false),
  values: z.array(z.string()).optional(),
  value: z.string().optional(),
});
export type Constraint = z.infer<typeof constraintSchema>;
export type ConstraintInput = z.input<typeof constraintSchema>;

/** POST /constraints/validate: one constraint, checked on its own. */
export const validateConstraintSchema = constraintSchema;

/** A constraint as the playground reports it. */
export type ConstraintWithResult = Constraint & { result: boolean };
