import { z } from 'zod';
import { FEATURE_TYPES } from './feature.js';

/** One parameter of a strategy definition, as the strategy editor offers it. */
export const strategyParameterSchema = z.object({
  name: z.string().min(1, 'must be a non-empty parameter name'),
  type: z.enum(['string', 'percentage', 'list', 'number', 'boolean']),
  description: z.string().max(500, 'must be at most 500 characters').default(''),
  required: z.boolean().default(false),
});
export type StrategyParameter = z.infer<typeof strategyParameterSchema>;

/** The body that defines (or redefines) a custom strategy. */
export const strategyDefinitionSchema = z.object({
  name: z
    .string()
    .regex(/^[a-zA-Z0-9_~.-]{1,100}$/, 'must be 1 to 100 letters, digits, "_", "~", "." or "-"'),
  title: z.string().max(100, 'must be at most 100 characters').optional(),
  description: z.string().max(1000, 'must be at most 1000 characters').default(''),
  parameters: z.array(strategyParameterSchema).max(50, 'must list at most 50 parameters').default([]),
});
export type CustomStrategyDefinition = z.infer<typeof strategyDefinitionSchema>;

/** A strategy definition as `/api/admin/strategies` shows it. */
export const strategyDefinitionViewSchema = z.strictObject({
  name: z.string(),
  displayName: z.string().nullable(),
  title: z.string().optional(),
  description: z.string(),
  editable: z.boolean(),
  deprecated: z.boolean(),
  parameters: z.array(
    z.strictObject({
      name: z.string(),
      type: strategyParameterSchema.shape.type,
      description: z.string(),
      required: z.boolean(),
    }),
  ),
});
export type StrategyDefinition = z.infer<typeof strategyDefinitionViewSchema>;

/** `{ version: 1, strategies }`: every strategy definition, built-ins first. */
export const strategyDefinitionListSchema = z.strictObject({
  version: z.literal(1),
  strategies: z.array(strategyDefinitionViewSchema),
});

/** The body that sets a feature type's expected lifetime (null or 0: never potentially stale). */
export const featureTypeLifetimeSchema = z.object({
  lifetimeDays: z
    .number()
    .int('must be a whole number of days')
    .min(0, 'must be at least 0')
    .max(100_000, 'is too large')
    .nullable(),
});

/** A feature type with its expected lifetime. */
export const featureTypeViewSchema = z.strictObject({
  id: z.enum(FEATURE_TYPES),
  name: z.string(),
  description: z.string(),
  lifetimeDays: z.number().nullable(),
});
export type FeatureTypeView = z.infer<typeof featureTypeViewSchema>;

/** `{ version: 1, types }`: every feature type. */
export const featureTypeListSchema = z.strictObject({
  version: z.literal(1),
  types: z.array(featureTypeViewSchema),
});
