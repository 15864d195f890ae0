import { z } from 'zod';
import { constraintSchema } from './constraint.js';
import { strategyVariantSchema } from './variant.js';

export const parametersSchema = z.record(
  z.string(),
  z.union([z.string(), z.number(), z.boolean()]).transform((v) => String(v)),
);

/** The configurable part of a strategy, as sent by a user (add or replace). */
export const strategyConfigSchema = z.object({
  name: z.string().min(1, 'must be a non-empty strategy name'),
  title: z.string().nullable().optional(),
  disabled: z.boolean().nullable().optional(),
  sortOrder: z.number().int().optional(),
  constraints: z.array(constraintSchema).default([]),
  variants: z.array(strategyVariantSchema).default([]),
  parameters: parametersSchema.default({}),
  segments: z.array(z.number().int().positive()).default([]),
});
export type StrategyConfig = z.infer<typeof strategyConfigSchema>;
export type StrategyConfigInput = z.input<typeof strategyConfigSchema>;

/**
 * A strategy configuration as answers show it (a project environment's default strategy): parameters
 * are the strings the input was turned into, so the OpenAPI document types them as strings.
 */
export const strategyConfigViewSchema = z.strictObject({
  ...strategyConfigSchema.shape,
  parameters: z.record(z.string(), z.string()),
});

/** A strategy attached to a feature in an environment, as stored and returned. */
export const featureStrategySchema = z.object({
  id: z.string(),
  name: z.string(),
  title: z.string().nullable(),
  disabled: z.boolean(),
  featureName: z.string(),
  projectId: z.string(),
  environment: z.string(),
  sortOrder: z.number(),
  segments: z.array(z.number()),
  constraints: z.array(constraintSchema),
  variants: z.array(strategyVariantSchema),
  parameters: z.record(z.string(), z.string()),
  createdAt: z.string(),
});
export type FeatureStrategy = z.infer<typeof featureStrategySchema>;

/** The project-environment default strategy (added when a feature environment is enabled empty). */
export const defaultStrategySchema = strategyConfigSchema;
export type DefaultStrategy = StrategyConfig;

/** One JSON-patch operation on a strategy. */
export const patchOperationSchema = z.object({
  op: z.enum(['add', 'remove', 'replace', 'copy', 'move', 'test']),
  path: z.string().startsWith('/', 'must be a JSON pointer starting with "/"'),
  from: z.string().optional(),
  value: z.unknown().optional(),
});
export type PatchOperation = z.infer<typeof patchOperationSchema>;
export const patchDocumentSchema = z.array(patchOperationSchema);

export const BUILT_IN_STRATEGIES = [
  'default',
  'flexibleRollout',
  'userWithId',
  'gradualRolloutUserId',
  'gradualRolloutSessionId',
  'gradualRolloutRandom',
  'remoteAddress',
  'applicationHostname',
] as const;

/** Body of the reorder route (and of `reorderStrategy` changes). */
export const strategyOrderSchema = z
  .array(z.object({ id: z.string().min(1), sortOrder: z.number().int() }))
  .min(1, 'must list at least one strategy');

/** A strategy as answers show it. */
export const featureStrategyViewSchema = z.strictObject(featureStrategySchema.shape);

/**
 * Body of POST …/environments/:environment/strategies/copy: the environments to copy to (other
 * environments of the feature's project), and which strategies of the source environment (all of
 * them when `strategyIds` is left out).
 */
export const strategyCopySchema = z.object({
  environments: z
    .array(z.string().min(1, 'must name an environment'))
    .min(1, 'must name at least one environment to copy to')
    .max(100, 'must name at most 100 environments'),
  strategyIds: z
    .array(z.string().min(1, 'must name a strategy'))
    .min(1, 'must name at least one strategy (leave it out to copy all)')
    .max(1_000, 'must name at most 1000 strategies')
    .optional(),
});
export type StrategyCopyInput = z.input<typeof strategyCopySchema>;

/** What a copy made: every new strategy, environment by environment, in the source's order. */
export const strategyCopyResultSchema = z.strictObject({ strategies: z.array(featureStrategyViewSchema) });
