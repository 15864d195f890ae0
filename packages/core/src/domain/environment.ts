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

export interface Environment {
  name: string;
  type: string;
  enabled: boolean;
  protected: boolean;
  sortOrder: number;
  createdAt: string;
}

/** Environment types the reference knows; production is the one DORA reads. */
export const ENVIRONMENT_TYPES = ['development', 'test', 'preproduction', 'production'];
