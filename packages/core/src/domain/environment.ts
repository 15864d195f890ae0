import { z } from 'zod';

export const environmentNameSchema = z
  .string()
  .min(1, 'must be a non-empty environment name')
  .max(100)
  .regex(/^[a-zA-Z0-9~_.-]+$/, 'may hold letters, digits and "~", "_", ".", "-" only');

export const createEnvironmentSchema = z.object({
  name: environmentNameSchema,
  type: z.string().min(1, 'must be a non-empty environment type'),
  enabled: z.boolean().default(true),
  sortOrder: z.number().int().optional(),
});
export const updateEnvironmentSchema = z.object({
  type: z.string().min(1).optional(),
  sortOrder: z.number().int().optional(),
});

/** Body of POST /environments/validate: a name, checked by the rule creating an environment applies. */
export const validateEnvironmentNameSchema = z.object({ name: environmentNameSchema });

/** An environment of the instance, as the API answers it. */
export const environmentSchema = z.strictObject({
  name: z.string(),
  type: z.string(),
  enabled: z.boolean(),
  protected: z.boolean(),
  sortOrder: z.number(),
  createdAt: z.string(),
});
export type Environment = z.infer<typeof environmentSchema>;

/** GET /environments. */
export const environmentListSchema = z.strictObject({
  version: z.number(),
  environments: z.array(environmentSchema),
});

/** Environment types the reference knows; production is the one DORA reads. */
export const ENVIRONMENT_TYPES = ['development', 'test', 'preproduction', 'production'];
