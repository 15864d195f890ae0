// The API's own validation rules, reused from @flagstaff/core's zod schemas (its domain modules use
// only zod; the bundler drops the rest of core). One place to change if core grows a browser entry.
export {
  CONSTRAINT_OPERATORS,
  compileNamingPattern,
  constraintSchema,
  contextFieldSchema,
  createApiTokenSchema,
  createEnvironmentSchema,
  createFeatureSchema,
  createProjectSchema,
  EVENT_TYPES,
  FEATURE_TYPES,
  LIFECYCLE_STAGES,
  segmentInputSchema,
  strategyConfigSchema,
  tagSchema,
  tagTypeSchema,
  variantSchema,
} from '@flagstaff/core';
