import { z } from 'zod';

/** One legal value, as `POST /context/:field/legal-values` takes it. */
export const legalValueSchema = z.object({
  value: z.string().min(1, 'must not be empty').max(100, 'must be at most 100 characters'),
  description: z.string().max(500, 'must be at most 500 characters').optional(),
});
/** A field's legal values, as the reference checks them: each valid, no value listed twice. */
const legalValuesSchema = z.array(legalValueSchema).superRefine((values, ctx) => {
  const seen = new Set<string>();
  for (const [i, { value }] of values.entries()) {
    if (seen.has(value))
      ctx.addIssue({ code: 'custom', path: [i, 'value'], message: `lists "${value}" twice` });
    seen.add(value);
  }
});

export const contextFieldSchema = z.object({
  name: z
    .string()
    .min(1)
    .max(100)
    .regex(/^[^\s]+$/, 'must not contain spaces'),
  description: z.string().nullable().optional(),
  stickiness: z.boolean().default(false),
  sortOrder: z.number().int().default(10),
  legalValues: legalValuesSchema.default([]),
});
/** Update bodies carry no defaults: what is omitted stays as it is. */
export const updateContextFieldSchema = z.object({
  name: z.string().optional(),
  description: z.string().nullable().optional(),
  stickiness: z.boolean().optional(),
  sortOrder: z.number().int().optional(),
  legalValues: legalValuesSchema.optional(),
});
export type ContextFieldInput = z.input<typeof contextFieldSchema>;

/** A context field as the API answers it. */
export const contextFieldViewSchema = z.strictObject({
  name: z.string(),
  description: z.string().nullable(),
  stickiness: z.boolean(),
  sortOrder: z.number(),
  legalValues: z.array(z.strictObject({ value: z.string(), description: z.string().optional() })),
  createdAt: z.string(),
  /** The project a project-scoped field belongs to; absent for fields of the whole instance. */
  project: z.string().optional(),
});
export interface ContextField {
  name: string;
  description: string | null;
  stickiness: boolean;
  sortOrder: number;
  legalValues: { value: string; description?: string | undefined }[];
  createdAt: string;
  /** The project a project-scoped field belongs to; absent for fields of the whole instance. */
  project?: string;
}

/** A feature strategy constrained on a field (GET /projects/:p/context/:field/strategies). */
export const contextFieldStrategiesSchema = z.strictObject({
  strategies: z.array(
    z.strictObject({
      id: z.string(),
      projectId: z.string(),
      featureName: z.string(),
      strategyName: z.string(),
      environment: z.string(),
    }),
  ),
});

/** Context fields every instance has. */
export const BUILT_IN_CONTEXT_FIELDS = [
  'appName',
  'environment',
  'userId',
  'sessionId',
  'remoteAddress',
  'currentTime',
];
