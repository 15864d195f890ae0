import { z } from 'zod';
import { contextFieldSchema } from './context-field.js';
import { featureNameSchema } from './feature.js';
import { projectIdSchema } from './project.js';
import { segmentInputSchema } from './segment.js';

// Bodies of the reference's validate routes, which clients call before creating something. Each
// checks a name by the same rule creating the resource applies, so "valid" means "create would
// not refuse the name".

/** POST /features/validate: a feature name, checked against a project's naming pattern when one is named. */
export const validateFeatureNameSchema = z.object({
  name: featureNameSchema,
  projectId: z.string().nullable().optional(),
});

/** POST /projects/validate: a project id. */
export const validateProjectIdSchema = z.object({ id: projectIdSchema });

/** POST /context/validate: a context field name. */
export const validateContextFieldNameSchema = z.object({ name: contextFieldSchema.shape.name });

/** POST /segments/validate: a segment name. */
export const validateSegmentNameSchema = z.object({ name: segmentInputSchema.shape.name });
