import { z } from 'zod';
import { dependencyInputSchema } from './feature.js';

/** A parent dependency of a feature as the API shows it. */
export const dependencyViewSchema = z.strictObject({
  feature: z.string(),
  enabled: z.boolean(),
  variants: z.array(z.string()),
});

/** The path of a dependency route: the project and the child feature. */
export const dependencyPathSchema = z.object({
  project: z.string().min(1),
  child: z.string().min(1),
});

/** Adding a parent dependency: the path's project and child, the body's parent. */
export const addDependencySchema = dependencyInputSchema.safeExtend(dependencyPathSchema.shape);

/** Removing one parent dependency. */
export const removeDependencySchema = dependencyPathSchema.extend({ parent: z.string().min(1) });

/** The variant names a child feature may require of this parent (sorted). */
export const parentVariantsSchema = z.array(z.string());
