import { z } from 'zod';
import type { ConstraintWithResult } from './constraint.js';
import type { Variant, VariantResult } from './variant.js';

/** An optional context field; `null` counts as missing, as SDKs treat it. */
const optionalText = z
  .string()
  .nullish()
  .transform((value) => value ?? undefined);

export const playgroundContextSchema = z.looseObject({
  appName: z.string().min(1, 'must be a non-empty application name'),
  currentTime: z.iso
    .datetime({ offset: true })
    .nullish()
    .transform((value) => value ?? undefined),
  environment: optionalText,
  // Properties whose value is null are left out: the context does not have them.
  properties: z
    .record(z.string(), z.string().nullable())
    .nullish()
    .transform((properties) =>
      properties
        ? Object.fromEntries(
            Object.entries(properties).filter((entry): entry is [string, string] => entry[1] !== null),
          )
        : undefined,
    ),
  remoteAddress: optionalText,
  sessionId: optionalText,
  userId: optionalText,
});
export type PlaygroundContext = z.infer<typeof playgroundContextSchema>;

const WHOLE = 'must be a whole number';

/** The most features one page of the playground may ask for. */
export const PLAYGROUND_MAX_LIMIT = 1000;

export const playgroundRequestSchema = z.object({
  environment: z.string().min(1, 'must be a non-empty environment name'),
  projects: z.union([z.array(z.string()), z.literal('*')]).default('*'),
  context: playgroundContextSchema,
  // Flagstaff's own, for large configurations: without them, every feature of the projects.
  /** Only features whose name contains this text (ASCII letters in either case). */
  query: z.string({ error: 'must be a string' }).max(200, 'must be at most 200 characters').optional(),
  /** Features to skip, in the answer's order, before the page. */
  offset: z.number({ error: WHOLE }).int(WHOLE).min(0, 'must be 0 or more').optional(),
  /** At most this many features; the answer then also says how many match in `total`. */
  limit: z
    .number({ error: WHOLE })
    .int(WHOLE)
    .min(1, 'must be at least 1')
    .max(PLAYGROUND_MAX_LIMIT, `must be at most ${PLAYGROUND_MAX_LIMIT}`)
    .optional(),
});
export type PlaygroundRequest = z.infer<typeof playgroundRequestSchema>;

/** POST /api/admin/playground/advanced: several environments, and contexts with listed values. */
export const advancedPlaygroundRequestSchema = z.object({
  environments: z
    .array(z.string().min(1, 'must be a non-empty environment name'))
    .min(1, 'must name at least one environment')
    .max(20, 'must name at most 20 environments'),
  projects: z.union([z.array(z.string()), z.literal('*')]).default('*'),
  context: playgroundContextSchema,
});
export type AdvancedPlaygroundRequest = z.infer<typeof advancedPlaygroundRequestSchema>;

export type StrategyEvaluationResult =
  | { evaluationStatus: 'complete'; enabled: boolean }
  | { evaluationStatus: 'incomplete' | 'unevaluated'; enabled: false | 'unknown' };

export interface PlaygroundSegment {
  id: number;
  name: string;
  result: boolean;
  constraints: ConstraintWithResult[];
}

export interface PlaygroundStrategy {
  name: string;
  title?: string;
  id: string;
  result: StrategyEvaluationResult & { variant?: VariantResult | null };
  disabled: boolean | null;
  segments: PlaygroundSegment[];
  constraints: ConstraintWithResult[];
  parameters: Record<string, string>;
  links: { edit: string };
}

export interface PlaygroundFeature {
  name: string;
  projectId: string;
  strategies: { result: boolean | 'unknown'; data: PlaygroundStrategy[] };
  hasUnsatisfiedDependency: boolean;
  isEnabledInCurrentEnvironment: boolean;
  isEnabled: boolean;
  variant: VariantResult | null;
  variants: Variant[];
}

/** The playground's answer (its schema, `playgroundResponseSchema`, is below). */
export type PlaygroundResponse = z.infer<typeof playgroundResponseSchema>;

/** The request as the answer echoes it (parsed; the context keeps the fields it was given). */
const playgroundContextEchoSchema = z.looseObject({
  appName: z.string(),
  currentTime: z.string().optional(),
  environment: z.string().optional(),
  properties: z.record(z.string(), z.string()).optional(),
  remoteAddress: z.string().optional(),
  sessionId: z.string().optional(),
  userId: z.string().optional(),
});
const projectsEchoSchema = z.union([z.array(z.string()), z.literal('*')]);

const payloadOutputSchema = z.strictObject({
  type: z.enum(['json', 'csv', 'string', 'number']),
  value: z.string(),
});

/** A variant an evaluation picked. */
export const variantResultSchema = z.strictObject({
  name: z.string(),
  enabled: z.boolean(),
  payload: payloadOutputSchema.optional(),
  feature_enabled: z.boolean().optional(),
  featureEnabled: z.boolean().optional(),
});

/** A constraint with whether the context satisfies it (unknown operators are reported as stored). */
export const constraintResultSchema = z.strictObject({
  contextName: z.string(),
  operator: z.string(),
  caseInsensitive: z.boolean(),
  inverted: z.boolean(),
  values: z.array(z.string()).optional(),
  value: z.string().optional(),
  result: z.boolean(),
});

const playgroundStrategySchema = z.strictObject({
  name: z.string(),
  title: z.string().optional(),
  id: z.string(),
  result: z.union([
    z.strictObject({
      evaluationStatus: z.literal('complete'),
      enabled: z.boolean(),
      variant: variantResultSchema.nullable().optional(),
    }),
    z.strictObject({
      evaluationStatus: z.enum(['incomplete', 'unevaluated']),
      enabled: z.union([z.literal(false), z.literal('unknown')]),
      variant: variantResultSchema.nullable().optional(),
    }),
  ]),
  disabled: z.boolean().nullable(),
  segments: z.array(
    z.strictObject({
      id: z.number(),
      name: z.string(),
      result: z.boolean(),
      constraints: z.array(constraintResultSchema),
    }),
  ),
  constraints: z.array(constraintResultSchema),
  parameters: z.record(z.string(), z.string()),
  links: z.strictObject({ edit: z.string() }),
});

/** One feature explained for a context: every strategy, constraint and segment with its result. */
export const playgroundFeatureSchema = z.strictObject({
  name: z.string(),
  projectId: z.string(),
  strategies: z.strictObject({
    result: z.union([z.boolean(), z.literal('unknown')]),
    data: z.array(playgroundStrategySchema),
  }),
  hasUnsatisfiedDependency: z.boolean(),
  isEnabledInCurrentEnvironment: z.boolean(),
  isEnabled: z.boolean(),
  variant: variantResultSchema.nullable(),
  variants: z.array(
    z.strictObject({
      name: z.string(),
      weight: z.number(),
      weightType: z.string(),
      stickiness: z.string(),
      payload: payloadOutputSchema.optional(),
      overrides: z.array(z.strictObject({ contextName: z.string(), values: z.array(z.string()) })).optional(),
    }),
  ),
});

/** POST /api/admin/playground: the request echoed, every feature explained, `total` when paged. */
export const playgroundResponseSchema = z.strictObject({
  input: z.strictObject({
    environment: z.string(),
    projects: projectsEchoSchema,
    context: playgroundContextEchoSchema,
    query: z.string().optional(),
    offset: z.number().int().optional(),
    limit: z.number().int().optional(),
  }),
  features: z.array(playgroundFeatureSchema),
  total: z.number().int().optional(),
});

/** POST /api/admin/playground/advanced: per feature, per environment, one explanation per context. */
export const advancedPlaygroundResponseSchema = z.strictObject({
  input: z.strictObject({
    environments: z.array(z.string()),
    projects: projectsEchoSchema,
    context: playgroundContextEchoSchema,
  }),
  features: z.array(
    z.strictObject({
      name: z.string(),
      projectId: z.string(),
      environments: z.record(
        z.string(),
        z.array(playgroundFeatureSchema.extend({ context: playgroundContextEchoSchema })),
      ),
    }),
  ),
});
