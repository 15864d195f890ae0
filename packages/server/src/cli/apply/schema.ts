import { CONSTRAINT_OPERATORS } from '@flagstaff/core';
import { z } from 'zod';

// The file `flagstaff apply` reads. Rule: what the file states is enforced, what it leaves out is
// left as it is on the server (a feature's omitted `tags`, an environment's omitted `strategies`…).

const name = z.string().min(1, 'must be a non-empty name');

export const constraintSchema = z.strictObject({
  contextName: name,
  operator: z.enum(CONSTRAINT_OPERATORS, { error: `must be one of ${CONSTRAINT_OPERATORS.join(', ')}` }),
  values: z.array(z.string()).optional(),
  value: z.string().optional(),
  caseInsensitive: z.boolean().default(false),
  inverted: z.boolean().default(false),
});

const payloadSchema = z.strictObject({
  type: z.enum(['json', 'csv', 'string', 'number'], { error: 'must be json, csv, string or number' }),
  value: z.string({ error: 'expected a string (a JSON payload is written as a string)' }),
});

const weight = z.number({ error: 'expected a number' }).int('expected a whole number').min(0).max(1000);

export const variantSchema = z.strictObject({
  name,
  weight: weight.optional(),
  weightType: z.enum(['variable', 'fix']).default('variable'),
  stickiness: z.string().default('default'),
  payload: payloadSchema.optional(),
  overrides: z.array(z.strictObject({ contextName: name, values: z.array(z.string()) })).optional(),
});

/** Parameters are strings on the wire; numbers and booleans are accepted and written as strings. */
const parameterValue = z.union([z.string(), z.number(), z.boolean()], {
  error: 'expected a string, number or boolean',
});

export const strategySchema = z
  .strictObject({
    name: name.default('flexibleRollout'),
    title: z.string().nullable().optional(),
    disabled: z.boolean().default(false),
    parameters: z.record(z.string(), parameterValue).default({}),
    constraints: z.array(constraintSchema).default([]),
    /** Segment names (ids differ between instances). */
    segments: z.array(name).default([]),
    variants: z.array(variantSchema).default([]),
  })
  .superRefine((s, ctx) => {
    if (s.name !== 'flexibleRollout') return;
    const rollout = s.parameters.rollout;
    if (rollout === undefined) return;
    const n = typeof rollout === 'number' ? rollout : Number.NaN;
    if (!Number.isFinite(n))
      ctx.addIssue({ code: 'custom', path: ['parameters', 'rollout'], message: 'expected a number' });
    else if (n < 0 || n > 100)
      ctx.addIssue({ code: 'custom', path: ['parameters', 'rollout'], message: 'must be between 0 and 100' });
  });

export const featureEnvironmentSchema = z
  .strictObject({
    enabled: z.boolean().optional(),
    strategies: z.array(strategySchema).optional(),
    variants: z.array(variantSchema).optional(),
  })
  .refine((e) => !(e.enabled === true && e.strategies?.length === 0), {
    message: 'an enabled environment always has a strategy: omit "strategies" to get the default one',
    path: ['strategies'],
  });

const tagSchema = z.union(
  [
    z
      .string()
      .min(1)
      .transform((text) => {
        const i = text.indexOf(':');
        return i > 0 ? { type: text.slice(0, i), value: text.slice(i + 1) } : { type: 'simple', value: text };
      }),
    z.strictObject({ type: name, value: z.string().min(1) }),
  ],
  { error: 'expected "type:value", a simple tag value, or { type, value }' },
);

export const featureSchema = z.strictObject({
  name,
  project: name.default('default'),
  type: z.string().min(1).optional(),
  description: z.string().nullable().optional(),
  impressionData: z.boolean().optional(),
  stale: z.boolean().optional(),
  tags: z.array(tagSchema).optional(),
  environments: z.record(z.string(), featureEnvironmentSchema).default({}),
});

export const applyFileSchema = z.strictObject({
  /** Archive features of the described projects that the file does not list. */
  prune: z.boolean().default(false),
  environments: z
    .array(
      z.strictObject({
        name,
        type: z.string().min(1).default('development'),
        sortOrder: z.number().int().optional(),
      }),
    )
    .default([]),
  projects: z
    .array(
      z.strictObject({
        id: name,
        name: z.string().min(1).optional(),
        description: z.string().nullable().optional(),
        /** Environments to enable in the project (others are left as they are). */
        environments: z.array(name).optional(),
      }),
    )
    .default([]),
  contextFields: z
    .array(
      z.strictObject({
        name,
        description: z.string().optional(),
        stickiness: z.boolean().optional(),
        legalValues: z
          .array(
            z.union([
              z.string().transform((value) => ({ value })),
              z.strictObject({ value: z.string(), description: z.string().optional() }),
            ]),
          )
          .optional(),
      }),
    )
    .default([]),
  tagTypes: z.array(z.strictObject({ name, description: z.string().optional() })).default([]),
  segments: z
    .array(
      z.strictObject({
        name,
        description: z.string().nullable().optional(),
        project: z.string().nullable().optional(),
        constraints: z.array(constraintSchema).optional(),
      }),
    )
    .default([]),
  features: z.array(featureSchema).default([]),
});

export type ApplyFile = z.output<typeof applyFileSchema>;
export type FileFeature = ApplyFile['features'][number];
export type FileStrategy = z.output<typeof strategySchema>;
export type FileVariant = z.output<typeof variantSchema>;
export type FileConstraint = z.output<typeof constraintSchema>;
